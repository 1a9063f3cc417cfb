//! marque-razorpay-sandbox's integration tests, in one binary (the sandbox and its HTTP stack
//! link once, not four times). Each module was a test file of its own; test names keep that as
//! their first part (`contract::…`, `http::…`, `node_sdk::…`, `webhooks::…`).

mod common;

mod contract;
mod http;
mod node_sdk;
mod webhooks;
