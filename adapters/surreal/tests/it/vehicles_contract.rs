//! Every `VehicleStore` suite on every engine (see `engines`), with the catalog, the audit trail and
//! the catalog changes of the same database: `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

on_every_engine!(vehicles, [vehicles], vehicles_are_looked_up_make_model_generation_engine);
on_every_engine!(vehicles, [vehicles, audit_log], a_vehicle_is_added_once_with_its_audit_entry);
on_every_engine!(vehicles, [vehicles, catalog, audit_log], fitment_is_written_on_its_version_and_read_with_the_product);
on_every_engine!(
    vehicles,
    [vehicles, catalog],
    listings_and_searches_narrowed_to_a_car_keep_exactly_the_fitting_products
);
on_every_engine!(vehicles, [vehicles, catalog, catalog_changes], a_fitment_write_is_a_described_catalog_change);
