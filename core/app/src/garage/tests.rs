use std::sync::Arc;

use marque_domain::catalog::FuelType;
use marque_domain::vehicle::{Car, Engine, EngineCode, Vehicle, VehicleError, YearRange};
use marque_ports::garage::MockGarageStore;
use marque_ports::vehicles::MockVehicleStore;
use marque_ports::{GarageStoreError, UserId};
use mockall::predicate::eq;

use super::{GarageError, GarageService};

fn vehicle(model: &str, code: &str, engine: &str) -> Vehicle {
    let engine =
        Engine { code: EngineCode::parse(engine).expect("code"), fuel: FuelType::Diesel, label: "3.0d".into() };
    Vehicle::new("bmw", model, code, engine, YearRange::new(2019, None).expect("years")).expect("vehicle")
}

fn table() -> MockVehicleStore {
    let known = [vehicle("X5", "G05", "B57"), vehicle("X3", "G01", "B47")];
    let mut vehicles = MockVehicleStore::new();
    vehicles.expect_vehicle().returning(move |id| Ok(known.iter().find(|v| v.id() == *id).cloned()));
    vehicles
}

fn user() -> UserId {
    UserId("u1".into())
}

#[tokio::test]
async fn a_garage_is_kept_checked_and_answered_with_the_tables_names() {
    let mut garages = MockGarageStore::new();
    let x5 = vehicle("X5", "G05", "B57");
    let x3 = vehicle("X3", "G01", "B47");
    let kept = vec![Car { vehicle: x3.id(), year: Some(2021) }, Car { vehicle: x5.id(), year: None }];
    garages.expect_set_garage().with(eq(user()), eq(kept.clone())).times(1).returning(|_, _| Ok(()));
    let service = GarageService::new(Arc::new(garages), Arc::new(table()));
    let entries = service
        .set_garage(
            &user(),
            &[("BMW-X3-G01.B47".into(), Some(2021)), ("bmw-x5-g05.b57".into(), None), ("bmw-x3-g01.b47".into(), None)],
        )
        .await
        .expect("kept");
    assert_eq!(entries.iter().map(|e| e.car.clone()).collect::<Vec<_>>(), kept, "each vehicle once, in order");
    assert_eq!((entries[0].vehicle.model.as_str(), entries[1].vehicle.generation.as_str()), ("X3", "G05"));
}

#[tokio::test]
async fn a_car_the_table_lacks_a_bad_year_or_a_sixth_car_keeps_nothing() {
    let mut garages = MockGarageStore::new();
    garages.expect_set_garage().never();
    let service = GarageService::new(Arc::new(garages), Arc::new(table()));
    let refused = |e: VehicleError| Err(GarageError::Invalid(e));
    assert_eq!(service.set_garage(&user(), &[("bmw-x5-g05.b58".into(), None)]).await, refused(VehicleError::Unknown));
    assert_eq!(service.set_garage(&user(), &[("not a car".into(), None)]).await, refused(VehicleError::Unknown));
    assert_eq!(
        service.set_garage(&user(), &[("bmw-x5-g05.b57".into(), Some(3000))]).await,
        refused(VehicleError::YearInvalid)
    );
    let six: Vec<(String, Option<i64>)> = (1..=6).map(|n| (format!("bmw-x{n}-g0{n}.b57"), None)).collect();
    assert_eq!(service.set_garage(&user(), &six).await, refused(VehicleError::GarageTooMany));
    assert_eq!(GarageError::Invalid(VehicleError::GarageTooMany).message().code(), "garage.too_many");
}

#[tokio::test]
async fn a_kept_car_the_table_no_longer_has_is_left_out_and_a_down_store_is_unavailable() {
    let x5 = vehicle("X5", "G05", "B57");
    let gone = Car { vehicle: marque_domain::vehicle::VehicleId::parse("bmw-x9-g99.b99").expect("id"), year: None };
    let mut garages = MockGarageStore::new();
    let stored = vec![gone, Car { vehicle: x5.id(), year: None }];
    garages.expect_garage().times(1).returning(move |_| Ok(stored.clone()));
    garages.expect_garage().returning(|_| Err(GarageStoreError::Unavailable { reason: "down".into() }));
    let service = GarageService::new(Arc::new(garages), Arc::new(table()));
    let read = service.garage(&user()).await.expect("read");
    assert_eq!(read.iter().map(|e| e.vehicle.id()).collect::<Vec<_>>(), vec![x5.id()]);
    assert!(matches!(service.garage(&user()).await, Err(GarageError::Unavailable(_))));
}
