//! Every order refund suite (`OrderDesk`'s refunds) on every engine (see `engines`), each with the
//! order, catalog and account stores of the same database: `<suite>::mem`, `<suite>::surrealkv` and
//! `<suite>::ws`.

macro_rules! order_refund_suite {
    ($suite:ident) => {
        on_every_engine!(order_refunds, [order_desk, orders, catalog, accounts], $suite);
    };
}

marque_contract_tests::for_each_order_refund_suite!(order_refund_suite);
