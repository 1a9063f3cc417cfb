// Choosing a car from the vehicle table, one short list at a time (make → model → generation → engine), then its
// model year if the shopper knows it. Each list is one small call; a choice already made can be changed by
// tapping it in the trail above the list.
import { useT } from '@marque/i18n';
import type { GarageCar } from '@marque/session';
import { fuelText } from '@marque/ui';
import { useId, useState } from 'react';
import { yearsText } from '../../../lib/garage/fit';
import { useVehicles, type Vehicle, type VehicleGeneration, type VehicleName, type VehicleStep } from '../api/get-vehicles';

type Chosen = { make?: VehicleName; model?: VehicleName; generation?: VehicleGeneration; vehicle?: Vehicle };
type Step = 'make' | 'model' | 'generation' | 'engine';
type Choice = { key: string; text: string; choose: () => void };

export function VehiclePicker({ onChosen, onCancel }: { onChosen: (car: GarageCar) => void; onCancel?: () => void }) {
  const t = useT('garage');
  const [chosen, setChosen] = useState<Chosen>({});
  const { make, model, generation, vehicle } = chosen;
  const trail = [
    make && { text: make.name, back: {} },
    model && { text: model.name, back: { make } },
    generation && { text: generation.code, back: { make, model } },
    vehicle && { text: vehicle.engine, back: { make, model, generation } },
  ].filter((part) => part !== undefined);

  return (
    <div className="vehicle-picker">
      {trail.length > 0 ? (
        <ol className="vehicle-picker__trail">
          {trail.map(({ text, back }, level) => (
            <li key={level}>
              <button type="button" className="vehicle-picker__step" onClick={() => setChosen(back)}>
                {text}
              </button>
            </li>
          ))}
        </ol>
      ) : null}
      {make && model && generation && vehicle ? (
        <YearStep
          vehicle={vehicle}
          onSave={(year) =>
            onChosen({ id: vehicle.id, make: make.name, model: model.name, generation: generation.code, engine: vehicle.engine, year })
          }
        />
      ) : (
        <ListStep chosen={chosen} onChoose={setChosen} />
      )}
      {onCancel ? (
        <button type="button" className="vehicle-picker__back" onClick={onCancel}>
          {t('back')}
        </button>
      ) : null}
    </div>
  );
}

function ListStep({ chosen, onChoose }: { chosen: Chosen; onChoose: (next: Chosen) => void }) {
  const t = useT('garage');
  const labels = useT('common');
  const [attempt, setAttempt] = useState(0);
  const { make, model, generation } = chosen;
  const headingId = useId();
  const [step, query]: [Step, VehicleStep] = generation
    ? ['engine', { generation: generation.id }]
    : model && make
      ? ['generation', { make: make.id, model: model.id }]
      : make
        ? ['model', { make: make.id }]
        : ['make', {}];
  const list = useVehicles(query, attempt);
  if (list.status === 'loading') {
    return (
      <p className="status-message" role="status">
        {t('loading')}
      </p>
    );
  }
  if (list.status === 'error') {
    return (
      <p className="status-message" role="alert">
        {t('failed')}{' '}
        <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
          {t('retry')}
        </button>
      </p>
    );
  }
  const { makes, models, generations, vehicles } = list.data;
  const choices: Choice[] =
    step === 'make'
      ? (makes ?? []).map((m) => ({ key: m.id, text: m.name, choose: () => onChoose({ make: m }) }))
      : step === 'model'
        ? (models ?? []).map((m) => ({ key: m.id, text: m.name, choose: () => onChoose({ make, model: m }) }))
        : step === 'generation'
          ? (generations ?? []).map((g) => ({
              key: g.id,
              text: `${g.code} · ${yearsText(g.years)}`,
              choose: () => onChoose({ make, model, generation: g }),
            }))
          : (vehicles ?? []).map((v) => ({
              key: v.id,
              text: `${v.engine} · ${fuelText(labels, v.fuel)} · ${v.engineCode} · ${yearsText(v.years)}`,
              choose: () => onChoose({ ...chosen, vehicle: v }),
            }));
  return (
    <>
      <h3 id={headingId}>{t(`step.${step}`)}</h3>
      <ul className="vehicle-picker__list" aria-labelledby={headingId}>
        {choices.map(({ key, text, choose }) => (
          <li key={key}>
            <button type="button" className="garage-choice" onClick={choose}>
              {text}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

function YearStep({ vehicle, onSave }: { vehicle: Vehicle; onSave: (year: number | null) => void }) {
  const t = useT('garage');
  const [year, setYear] = useState('');
  const selectId = useId();
  const last = Math.max(vehicle.years.from, vehicle.years.to ?? new Date().getFullYear());
  const years = Array.from({ length: last - vehicle.years.from + 1 }, (_, i) => last - i);
  return (
    <form
      className="vehicle-picker__year"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(year === '' ? null : Number(year));
      }}
    >
      <label htmlFor={selectId}>{t('step.year')}</label>
      <select id={selectId} value={year} onChange={(event) => setYear(event.target.value)}>
        <option value="">{t('year.unknown')}</option>
        {years.map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </select>
      <button type="submit" className="button">
        {t('save')}
      </button>
    </form>
  );
}
