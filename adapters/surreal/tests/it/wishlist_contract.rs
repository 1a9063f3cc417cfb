//! Every `WishlistStore` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

macro_rules! wishlist_suite {
    ($suite:ident) => {
        on_every_engine!(wishlist, wishlist, $suite);
    };
}

marque_contract_tests::for_each_wishlist_suite!(wishlist_suite);
