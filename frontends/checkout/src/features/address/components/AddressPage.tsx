// /address (customers only; a visitor goes to /login): choose, add, edit or delete a delivery address, then
// NEXT to review (see use-next-step) or BACK to the cart panel. The step bar shows where checkout stands.
import { openCartPanel, selectAddress, useCart, type Address } from '@marque/cart';
import { useT } from '@marque/i18n';
import { getSession, refetchUser, useSession } from '@marque/session';
import { StepBar, useDocumentTitle } from '@marque/ui';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { addressLine } from '../../../lib/address-text';
import { ProblemAlert } from '../../../lib/ProblemAlert';
import { problemOfCode, ruleProblem, type Problem } from '../../../lib/problem';
import { removeAddress } from '../api/remove-address';
import { useNextStep } from '../hooks/use-next-step';
import { AddressForm } from './AddressForm';
import { DeleteAddressDialog } from './DeleteAddressDialog';

type Editing = { address: Address | null } | null;

export function AddressPage() {
  const t = useT('checkout');
  const { status, user } = useSession();
  const { address: chosen } = useCart();
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Address | null>(null);
  const [notice, setNotice] = useState<Problem | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const { next, problem: nextProblem, checking } = useNextStep();
  useDocumentTitle(t('address.title'));
  const addresses = (user?.address ?? []) as Address[];

  useEffect(() => {
    if (status === 'anonymous') navigate('/login', { replace: true });
  }, [status, navigate]);

  // The chosen address follows the saved one: edited, it is the new text; deleted, nothing is chosen.
  useEffect(() => {
    if (!chosen) return;
    const saved = addresses.find((a) => a._id === chosen._id);
    if (saved !== chosen) selectAddress(saved ?? null);
  }, [addresses, chosen]);

  if (!user) return null;

  const saved = async ({ edited, id }: { edited: boolean; id?: string }) => {
    setEditing(null);
    setNotice(ruleProblem(edited ? 'address.updated' : 'address.added'));
    await refetchUser();
    // A new address is the one the customer means to use.
    const added = ((getSession().user?.address ?? []) as Address[]).find((a) => a._id === id);
    if (added) selectAddress(added);
  };

  const confirmDelete = async () => {
    const address = deleting;
    setDeleting(null);
    if (!address) return;
    const answer = await removeAddress(user._id, address._id);
    if (!answer.ok) {
      setProblem(problemOfCode(answer.code));
      return;
    }
    await refetchUser();
  };

  return (
    <section className="checkout-page">
      <StepBar current="address" authorize={false} />
      <h1>{t('address.title')}</h1>
      <ProblemAlert problem={notice} role="status" />
      <ProblemAlert problem={problem} />
      {addresses.length === 0 ? <p>{t('address.none')}</p> : null}
      {addresses.length > 0 ? (
        <fieldset className="address-list">
          <legend>{t('address.choose')}</legend>
          {addresses.map((address) => {
            const line = addressLine(address);
            return (
              <div key={address._id} className="address-option checkout-card">
                <label className="address-option__choice">
                  <input
                    type="radio"
                    name="address"
                    value={address._id}
                    checked={chosen?._id === address._id}
                    onChange={() => selectAddress(address)}
                  />
                  <span>
                    {line}
                    <br />
                    {t('address.mobile', { mobile: address.mobileNo })}
                    {address.gstin ? (
                      <>
                        <br />
                        {t('address.gstin', { gstin: address.gstin })}
                      </>
                    ) : null}
                  </span>
                </label>
                <div className="address-option__actions">
                  <button
                    type="button"
                    className="button button--quiet"
                    aria-label={t('address.edit_label', { address: line })}
                    onClick={() => setEditing({ address })}
                  >
                    {t('address.edit')}
                  </button>
                  <button
                    type="button"
                    className="button button--quiet"
                    aria-label={t('address.delete_label', { address: line })}
                    onClick={() => setDeleting(address)}
                  >
                    {t('address.delete')}
                  </button>
                </div>
              </div>
            );
          })}
        </fieldset>
      ) : null}
      {editing ? (
        <AddressForm
          key={editing.address?._id ?? 'new'}
          editing={editing.address}
          onSaved={(result) => void saved(result)}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <button type="button" className="button button--quiet" onClick={() => setEditing({ address: null })}>
          {t('address.add')}
        </button>
      )}
      <ProblemAlert problem={nextProblem} />
      <div className="checkout-nav">
        <button type="button" className="button button--quiet" onClick={openCartPanel}>
          {t('nav.back')}
        </button>
        <button type="button" className="button" disabled={checking} onClick={() => void next()}>
          {t('nav.next')}
        </button>
      </div>
      {deleting ? <DeleteAddressDialog onConfirm={() => void confirmDelete()} onCancel={() => setDeleting(null)} /> : null}
    </section>
  );
}
