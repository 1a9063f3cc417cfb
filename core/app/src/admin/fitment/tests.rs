//! `AdminFitmentService` over a mocked store: the role first, rows checked against the vehicles of
//! their generations, the write on the version named with its audit entry, vehicles added once.

use std::sync::{Arc, Mutex};

use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::MockVehicleStore;

use super::*;

struct Fixed(i64);

impl Clock for Fixed {
    fn now(&self) -> i64 {
        self.0
    }
}

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into(), name: "Ravi".into(), role }
}

fn x5(code: &str, fuel: FuelType, label: &str) -> Vehicle {
    let engine = Engine { code: EngineCode::parse(code).expect("code"), fuel, label: label.into() };
    Vehicle::new("bmw", "X5", "G05", engine, YearRange::new(2019, None).expect("years")).expect("vehicle")
}

fn input(generation: &str, engine: Option<&str>, years: (Option<i64>, Option<i64>), note: &str) -> FitmentInput {
    FitmentInput {
        generation: generation.into(),
        engine: engine.map(str::to_owned),
        year_from: years.0,
        year_to: years.1,
        note: Some(note.into()),
    }
}

fn service(store: MockVehicleStore) -> AdminFitmentService {
    AdminFitmentService::new(Arc::new(store), Arc::new(Fixed(1_780_000_000)))
}

#[tokio::test]
async fn only_the_catalog_roles_read_or_write_fitment() {
    let s = service(MockVehicleStore::new());
    let p = ProductId("p1".into());
    for role in [StaffRole::Fulfilment] {
        assert!(matches!(s.fitment(&staff(role), &p).await, Err(AdminFitmentError::Forbidden(_))));
        assert!(matches!(s.set_fitment(&staff(role), &p, &[], 0).await, Err(AdminFitmentError::Forbidden(_))));
        let refused = s.add_vehicle(&staff(role), &VehicleInput::default()).await;
        assert!(matches!(refused, Err(AdminFitmentError::Forbidden(_))));
    }
}

#[tokio::test]
async fn rows_are_named_from_their_generation_and_written_with_an_audit_entry() {
    let mut store = MockVehicleStore::new();
    store.expect_vehicles_of().returning(|g| {
        Ok(if g.as_str() == "bmw-x5-g05" {
            vec![x5("B57", FuelType::Diesel, "3.0d"), x5("B58", FuelType::Petrol, "3.0")]
        } else {
            Vec::new()
        })
    });
    store.expect_fitment().returning(|_| Ok(StoredFitment::default()));
    let written = Arc::new(Mutex::new(Vec::new()));
    let seen = written.clone();
    store.expect_set_fitment().returning(move |product, fits, version, audit| {
        seen.lock().expect("lock").push((product.clone(), fits.to_vec(), version, audit.clone()));
        Ok(version + 1)
    });
    let s = service(store);
    let p = ProductId("p1".into());
    let rows = [
        input("BMW-X5-G05", Some("b57"), (Some(2019), Some(2022)), "front axle"),
        input("bmw-x5-g05", None, (None, None), ""),
    ];
    let stored = s.set_fitment(&staff(StaffRole::Catalog), &p, &rows, 3).await.expect("written");
    assert_eq!(stored.version, 4);
    assert_eq!(stored.fits[0].engine_label.as_deref(), Some("3.0d"));
    assert_eq!((stored.fits[1].model.as_str(), stored.fits[1].generation.as_str()), ("X5", "G05"));
    let calls = written.lock().expect("lock").clone();
    let (product, fits, version, audit) = &calls[0];
    assert_eq!((product, version, fits.len()), (&p, &3, 2));
    assert_eq!((audit.action.as_str(), audit.subject.as_str()), ("product.fitment", "product:p1"));
    assert!(audit.after.as_deref().is_some_and(|a| a.contains("front axle")), "{audit:?}");

    let unknown_engine = [input("bmw-x5-g05", Some("S63"), (None, None), "")];
    let refused = s.set_fitment(&staff(StaffRole::Owner), &p, &unknown_engine, 4).await;
    assert_eq!(refused, Err(AdminFitmentError::Invalid(Message::FitmentInvalid)));
    let unknown_generation = [input("bmw-x5-e70", None, (None, None), "")];
    let refused = s.set_fitment(&staff(StaffRole::Owner), &p, &unknown_generation, 4).await;
    assert_eq!(refused, Err(AdminFitmentError::Invalid(Message::FitmentInvalid)));
    let backwards = [input("bmw-x5-g05", None, (Some(2022), Some(2019)), "")];
    let refused = s.set_fitment(&staff(StaffRole::Owner), &p, &backwards, 4).await;
    assert_eq!(refused, Err(AdminFitmentError::Invalid(Message::VehicleYearInvalid)));
    let long_note = [input("bmw-x5-g05", None, (None, None), &"n".repeat(81))];
    let refused = s.set_fitment(&staff(StaffRole::Owner), &p, &long_note, 4).await;
    assert_eq!(refused, Err(AdminFitmentError::Invalid(Message::FitmentNoteTooLong)));
    let too_many: Vec<FitmentInput> =
        (0..201).map(|i| input(&format!("bmw-x5-g{i}"), None, (None, None), "")).collect();
    let refused = s.set_fitment(&staff(StaffRole::Owner), &p, &too_many, 4).await;
    assert_eq!(refused, Err(AdminFitmentError::Invalid(Message::FitmentTooMany)));
    assert_eq!(written.lock().expect("lock").len(), 1, "refused rows write nothing");
}

#[tokio::test]
async fn a_stale_version_or_a_missing_product_is_reported() {
    let mut store = MockVehicleStore::new();
    store.expect_fitment().returning(|_| Ok(StoredFitment::default()));
    store.expect_set_fitment().returning(|p, _, _, _| {
        if p.as_str() == "gone" {
            Err(VehicleStoreError::ProductNotFound { id: "gone".into() })
        } else {
            Err(VehicleStoreError::Changed { version: 7 })
        }
    });
    let s = service(store);
    let stale = s.set_fitment(&staff(StaffRole::Catalog), &ProductId("p1".into()), &[], 2).await;
    assert_eq!(stale, Err(AdminFitmentError::Changed { version: 7 }));
    let gone = s.set_fitment(&staff(StaffRole::Catalog), &ProductId("gone".into()), &[], 0).await;
    assert_eq!(gone.map_err(|e| e.message()), Err(Message::AdminProductNotFound));
}

#[tokio::test]
async fn a_vehicle_is_checked_then_added_with_its_audit_entry() {
    let mut store = MockVehicleStore::new();
    store.expect_add_vehicle().returning(|v, audit| {
        assert_eq!(audit.subject, format!("vehicle:{}", v.id()));
        if v.engine.code.as_str() == "B57" {
            Err(VehicleStoreError::Duplicate { id: v.id().to_string() })
        } else {
            Ok(())
        }
    });
    let s = service(store);
    let mut cayenne = VehicleInput {
        make: "porsche".into(),
        model: "Cayenne".into(),
        generation: "9Y0".into(),
        engine_code: "dcb".into(),
        fuel: "petrol".into(),
        engine_label: "3.0 V6".into(),
        year_from: 2018,
        year_to: None,
    };
    let added = s.add_vehicle(&staff(StaffRole::Catalog), &cayenne).await.expect("added");
    assert_eq!(added.id().to_string(), "porsche-cayenne-9y0.dcb");
    cayenne.make = "tata".into();
    let refused = s.add_vehicle(&staff(StaffRole::Catalog), &cayenne).await;
    assert_eq!(refused, Err(AdminFitmentError::Invalid(Message::VehicleInvalid)));
    let duplicate = VehicleInput {
        make: "bmw".into(),
        model: "X5".into(),
        generation: "G05".into(),
        engine_code: "B57".into(),
        fuel: "diesel".into(),
        engine_label: "3.0d".into(),
        year_from: 2019,
        year_to: None,
    };
    assert_eq!(s.add_vehicle(&staff(StaffRole::Owner), &duplicate).await, Err(AdminFitmentError::Duplicate));
}
