//! Every `StockLedger` suite on every engine (see `engines`), each with the catalog and order stores
//! of the same database (stock lives on the products; reservations, releases and sales are entries):
//! `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

macro_rules! stock_suite {
    ($suite:ident) => {
        on_every_engine!(stock, [stock, catalog, orders], $suite);
    };
}

marque_contract_tests::for_each_stock_suite!(stock_suite);
