//! The vehicle table's seed list (`vehicles.txt`) and the demo catalog's fitment.

use marque_domain::catalog::{FuelType, Product};
use marque_domain::vehicle::{
    slugify, Engine, EngineCode, FitmentNote, FitmentRow, ProductFit, Vehicle, VehicleError, YearRange,
};

use super::data::{BrandSpec, ModelSpec};

const LIST: &str = include_str!("vehicles.txt");

/// Why a line of the list is not a generation with its engines.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("vehicles.txt line {line}: {reason}")]
pub struct ListError {
    line: usize,
    reason: String,
}

/// Every vehicle of the seed list.
///
/// # Errors
/// The first line that is not `make | model | code | years | CODE fuel label; …`.
pub fn vehicles() -> Result<Vec<Vehicle>, ListError> {
    let mut out = Vec::new();
    for (i, line) in LIST.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |reason: &str| ListError { line: i + 1, reason: reason.to_owned() };
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let [make, model, code, years, engines] = parts.as_slice() else { return Err(fail("five fields")) };
        let years = years_of(years).map_err(|_| fail("years"))?;
        for engine in engines.split(';').map(str::trim) {
            let mut words = engine.splitn(3, ' ');
            let (Some(code_text), Some(fuel), Some(label)) = (words.next(), words.next(), words.next()) else {
                return Err(fail("an engine is `CODE fuel label`"));
            };
            let engine = Engine {
                code: EngineCode::parse(code_text).map_err(|_| fail("engine code"))?,
                fuel: FuelType::parse(fuel).ok_or_else(|| fail("fuel"))?,
                label: label.to_owned(),
            };
            out.push(Vehicle::new(make, model, code, engine, years).map_err(|_| fail("a field out of the rules"))?);
        }
    }
    Ok(out)
}

/// `2019-` or `2013-2018`.
fn years_of(text: &str) -> Result<YearRange, VehicleError> {
    let (from, to) = text.split_once('-').ok_or(VehicleError::YearInvalid)?;
    let number = |s: &str| s.trim().parse::<i64>().map_err(|_| VehicleError::YearInvalid);
    let to = if to.trim().is_empty() { None } else { Some(number(to)?) };
    YearRange::new(number(from)?, to)
}

/// The demo fitment of a product of `brand`'s `model` (a model and its generation code, `X5 G05`):
/// the generation's row, for the engine of the product's fuel on two products in three (every
/// engine otherwise, or when the generation has none of that fuel); front parts say so in a note.
/// Empty when the list has no such generation.
#[must_use]
pub fn demo_fitment(product: &Product, brand: &BrandSpec, model: &ModelSpec, vehicles: &[Vehicle]) -> Vec<ProductFit> {
    let (name, code) = model.name.rsplit_once(' ').unwrap_or((model.name, ""));
    let of_generation: Vec<Vehicle> = vehicles
        .iter()
        .filter(|v| {
            let (model, wanted) = (slugify(&v.model), slugify(name));
            // The demo calls a Range Rover Evoque an `Evoque`.
            v.make.as_str() == brand.slug
                && (model == wanted || model.ends_with(&format!("-{wanted}")))
                && (code.is_empty() || slugify(&v.generation) == slugify(code))
        })
        .cloned()
        .collect();
    // Without a code in the demo's model name (`XC60`), the newest generation of the model.
    let newest = of_generation.iter().map(|v| v.years.from).max();
    let chosen: Vec<Vehicle> = of_generation.into_iter().filter(|v| Some(v.years.from) == newest).collect();
    let Some(first) = chosen.first() else { return Vec::new() };
    let n: u64 = product.id.as_str().bytes().filter(u8::is_ascii_digit).fold(0, |n, d| n * 10 + u64::from(d - b'0'));
    let engine = if n.is_multiple_of(3) {
        None
    } else {
        chosen.iter().find(|v| Some(v.engine.fuel) == product.fuel_type).map(|v| v.engine.code.clone())
    };
    let note = if product.name.contains(" Front ") { FitmentNote::parse("front axle").ok().flatten() } else { None };
    let row = FitmentRow { generation: first.generation_id(), engine, years: None, note };
    ProductFit::named(row, &chosen).map(|fit| vec![fit]).unwrap_or_default()
}

/// [`demo_fitment`] widened to `rows` fitment rows (`seed --fits`, for benchmarks at the issue's
/// 20 rows a product): after the product's own row, the engines of its generation and then of the
/// make's neighbouring generations in the list's order (each generation's every-engine row first),
/// nearest first, as a part fits its model line. Fewer when the make has fewer; `rows` of 1 or less
/// is [`demo_fitment`] itself.
#[must_use]
pub fn demo_fitment_rows(
    product: &Product,
    brand: &BrandSpec,
    model: &ModelSpec,
    vehicles: &[Vehicle],
    rows: usize,
) -> Vec<ProductFit> {
    let mut fits = demo_fitment(product, brand, model, vehicles);
    let Some(own) = fits.first().map(|f| f.row.generation.clone()) else { return fits };
    if rows <= fits.len() {
        return fits;
    }
    let of_make: Vec<&Vehicle> = vehicles.iter().filter(|v| v.make.as_str() == brand.slug).collect();
    let mut generations: Vec<marque_domain::vehicle::GenerationId> = Vec::new();
    for v in &of_make {
        let id = v.generation_id();
        if !generations.contains(&id) {
            generations.push(id);
        }
    }
    let at = generations.iter().position(|g| *g == own).unwrap_or(0);
    // Nearest first: the own generation, then one after, one before, two after, …
    let mut order = vec![at];
    for step in 1..generations.len() {
        if at + step < generations.len() {
            order.push(at + step);
        }
        if step <= at {
            order.push(at - step);
        }
    }
    let mut candidates: Vec<FitmentRow> = Vec::new();
    for &i in &order {
        let generation = &generations[i];
        candidates.push(FitmentRow { generation: generation.clone(), engine: None, years: None, note: None });
        for v in of_make.iter().filter(|v| v.generation_id() == *generation) {
            candidates.push(FitmentRow {
                generation: generation.clone(),
                engine: Some(v.engine.code.clone()),
                years: None,
                note: None,
            });
        }
    }
    for row in candidates {
        if fits.len() >= rows {
            break;
        }
        if fits.iter().any(|f| f.row.generation == row.generation && f.row.engine == row.engine) {
            continue;
        }
        if let Ok(fit) = ProductFit::named(row, vehicles) {
            fits.push(fit);
        }
    }
    fits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_list_parses_into_a_few_hundred_distinct_vehicles_of_the_eight_makes() {
        let list = vehicles().expect("the list parses");
        assert!(list.len() >= 250, "{}", list.len());
        let mut ids: Vec<String> = list.iter().map(|v| v.id().to_string()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), list.len(), "every vehicle once");
        for (make, _) in marque_domain::vehicle::MAKES {
            assert!(list.iter().filter(|v| v.make.as_str() == make).count() >= 10, "{make}");
        }
        assert!(ids.iter().any(|id| id == "bmw-x5-g05.b57"), "the X5 G05 3.0d");
    }

    #[test]
    fn demo_products_of_a_listed_generation_fit_it() {
        let list = vehicles().expect("the list parses");
        let mut fitted = 0;
        let mut x5_diesel = 0;
        for n in 0..800 {
            let (product, brand, model) = super::super::product_with_model(n);
            let fits = demo_fitment(&product, brand, model, &list);
            fitted += usize::from(!fits.is_empty());
            let car = marque_domain::vehicle::Car {
                vehicle: marque_domain::vehicle::VehicleId::parse("bmw-x5-g05.b57").expect("id"),
                year: Some(2021),
            };
            x5_diesel += usize::from(marque_domain::vehicle::fits_any(
                &fits.iter().map(|f| f.row.clone()).collect::<Vec<_>>(),
                &car,
            ));
        }
        assert!(fitted == 800, "every demo product fits its generation: {fitted}");
        assert!(x5_diesel >= 10, "parts for the X5 G05 3.0d: {x5_diesel}");
    }

    #[test]
    fn widened_demo_fitment_has_the_rows_asked_each_once_own_generation_first() {
        let list = vehicles().expect("the list parses");
        for n in [0, 1, 7, 250, 599] {
            let (product, brand, model) = super::super::product_with_model(n);
            let own = demo_fitment(&product, brand, model, &list);
            let wide = demo_fitment_rows(&product, brand, model, &list, 20);
            assert_eq!(wide.len(), 20, "product {n}");
            assert_eq!(wide[0], own[0], "the product's own row comes first");
            let rows: Vec<FitmentRow> = wide.iter().map(|f| f.row.clone()).collect();
            marque_domain::vehicle::check_against(&rows, &list).expect("every row names a listed vehicle, once");
            assert_eq!(demo_fitment_rows(&product, brand, model, &list, 1), own);
        }
    }
}
