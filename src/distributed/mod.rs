//! Runs on many machines through NATS JetStream: `gridtune worker` on each
//! machine, `evolve --server` and `match --server` as coordinators.
//!
//! - [`wire`]: the batch and result messages (JSON), their size, shape and
//!   version checks; standard library and serde only.
//! - [`connect`]: the server's address and credentials (user and password,
//!   token, creds file, TLS), and the two streams: `GRIDTUNE_WORK`, a
//!   work-queue stream whose durable pull consumer `workers` leases each
//!   batch to one worker until it acknowledges it (a worker that dies loses
//!   nothing: the batch is delivered again after its lease), and
//!   `GRIDTUNE_RESULTS`, where workers publish results.
//! - [`coordinator`]: [`coordinator::Remote`], the
//!   [`crate::arena::executor::Executor`] that publishes games as batches
//!   and gathers their results by batch id.
//! - [`recent`]: the ids refused lately, so that a batch or result
//!   delivered again and again is logged as refused once.
//! - [`worker`]: the worker loop: pull a batch, check it, play it on the
//!   worker's rayon pool with [`crate::arena::executor::Local`], publish the
//!   result, acknowledge.

pub mod connect;
pub mod coordinator;
pub mod recent;
pub mod wire;
pub mod worker;
