//! Every `ReturnStore` suite on every engine (see `engines`), with the audit trail and the notice
//! outbox of the same database: `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

macro_rules! return_suite {
    ($suite:ident) => {
        on_every_engine!(returns, [returns, audit_log, notice_outbox], $suite);
    };
}

marque_contract_tests::for_each_return_suite!(return_suite);
