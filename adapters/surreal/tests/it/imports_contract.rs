//! Every `ImportJobs` suite on every engine (see `engines`), each with the catalog editor, the stock
//! ledger and the audit trail of the same database: `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

macro_rules! imports_suite {
    ($suite:ident) => {
        on_every_engine!(imports, [import_jobs, catalog_editor, stock, audit_log], $suite);
    };
}

marque_contract_tests::for_each_imports_suite!(imports_suite);
