//! Every `ProductPhotos` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

on_every_engine!(photos, [photos, catalog, catalog_changes], images_are_set_in_order_and_tell_the_catalog_changes);
on_every_engine!(photos, [photos, catalog_changes], an_unknown_product_is_not_found);
