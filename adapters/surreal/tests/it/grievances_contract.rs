//! Every `GrievanceStore` suite on every engine (see `engines`), with the audit trail of the same
//! database: `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

macro_rules! grievance_suite {
    ($suite:ident) => {
        on_every_engine!(grievances, [grievances, audit_log], $suite);
    };
}

marque_contract_tests::for_each_grievance_suite!(grievance_suite);
