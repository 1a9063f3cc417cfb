//! Every `NoticeOutbox` suite on every engine (see `engines`), each with the order desk, order and
//! catalog stores of the same database: `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

macro_rules! notice_outbox_suite {
    ($suite:ident) => {
        on_every_engine!(notice_outbox, [notice_outbox, order_desk, orders, catalog], $suite);
    };
}

marque_contract_tests::for_each_notice_outbox_suite!(notice_outbox_suite);
