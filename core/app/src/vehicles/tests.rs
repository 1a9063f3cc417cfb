use std::sync::Arc;

use marque_domain::catalog::FuelType;
use marque_domain::vehicle::{Engine, EngineCode, Vehicle, VehicleError, YearRange};
use marque_ports::vehicles::MockVehicleStore;
use marque_ports::VehicleStoreError;
use mockall::predicate::eq;

use super::{VehicleLookupError, VehicleService};

fn x5() -> Vehicle {
    let engine = Engine { code: EngineCode::parse("B57").expect("code"), fuel: FuelType::Diesel, label: "3.0d".into() };
    Vehicle::new("bmw", "X5", "G05", engine, YearRange::new(2019, None).expect("years")).expect("vehicle")
}

#[tokio::test]
async fn a_car_names_a_stored_vehicle_and_maybe_a_year() {
    let mut store = MockVehicleStore::new();
    store.expect_vehicle().with(eq(x5().id())).returning(|_| Ok(Some(x5())));
    store.expect_vehicle().returning(|_| Ok(None));
    let service = VehicleService::new(Arc::new(store));
    let car = service.car("bmw-x5-g05.b57", Some(2021)).await.expect("a car");
    assert_eq!((car.vehicle, car.year), (x5().id(), Some(2021)));
    assert_eq!(service.car("bmw-x5-g05.b58", None).await, Err(VehicleLookupError::Unknown));
    assert_eq!(service.car("not a car", None).await, Err(VehicleLookupError::Unknown));
    assert_eq!(
        service.car("bmw-x5-g05.b57", Some(1900)).await,
        Err(VehicleLookupError::Invalid(VehicleError::YearInvalid))
    );
}

#[tokio::test]
async fn lists_refuse_makes_the_shop_does_not_sell_and_report_empty_ones_unknown() {
    let mut store = MockVehicleStore::new();
    store.expect_models().returning(|_| Ok(Vec::new()));
    store.expect_vehicles_of().returning(|_| Err(VehicleStoreError::Unavailable { reason: "down".into() }));
    let service = VehicleService::new(Arc::new(store));
    assert_eq!(service.models("tata").await, Err(VehicleLookupError::Invalid(VehicleError::Unknown)));
    assert_eq!(service.models("bmw").await, Err(VehicleLookupError::Unknown));
    assert!(matches!(service.vehicles("bmw-x5-g05").await, Err(VehicleLookupError::Unavailable(_))));
    assert_eq!(service.generations("bmw", "x 5").await, Err(VehicleLookupError::Invalid(VehicleError::Unknown)));
}
