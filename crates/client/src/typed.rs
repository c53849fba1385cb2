//! Typed calls: each command with the argument and result types of the protocol's command
//! table (`jsonl::cmd`), so front ends neither build nor pick apart protocol JSON.

use std::time::Duration;

use jsonl::CommandSpec;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ClientError;
use crate::session::{Session, Subscription};

/// A command's typed arguments as the `args` of its request.
pub fn encode_args<C: CommandSpec>(args: &C::Args) -> Result<Value, ClientError> {
    encode(C::COMMAND.name(), args)
}

fn encode<T: Serialize>(cmd: &str, args: &T) -> Result<Value, ClientError> {
    serde_json::to_value(args).map_err(|e| {
        ClientError::Malformed(format!("the arguments of '{cmd}' cannot be sent: {e}"))
    })
}

/// A successful response's `result` as the command's result type.
pub fn decode_result<C: CommandSpec>(result: Value) -> Result<C::Result, ClientError> {
    decode(C::COMMAND.name(), result)
}

/// Any part of an answer as the type it should have.
pub fn decode<T: DeserializeOwned>(cmd: &str, value: Value) -> Result<T, ClientError> {
    serde_json::from_value(value).map_err(|e| {
        ClientError::Malformed(format!(
            "the answer to '{cmd}' is not as the protocol defines it: {e}"
        ))
    })
}

impl Session {
    /// Sends command `C` with its typed arguments and answers its typed result, waiting at
    /// most `timeout` and until `interrupted()` (then the request is cancelled on the session;
    /// what it started goes on).
    pub fn call<C: CommandSpec>(
        &self,
        args: &C::Args,
        timeout: Duration,
        interrupted: &dyn Fn() -> bool,
    ) -> Result<C::Result, ClientError> {
        let result = self.request(
            C::COMMAND.name(),
            encode_args::<C>(args)?,
            timeout,
            interrupted,
        )?;
        decode_result::<C>(result)
    }

    /// Tells the session this connection attends stops for a person or an agent (`hello` with
    /// `attended`): when every attending client is gone while a program is stopped, the
    /// session lets it go after its grace period. Best effort: an older session ignores it.
    pub fn attend(&self) {
        let _ = self.call_within::<jsonl::cmd::Hello>(
            &jsonl::args::HelloArgs {
                events: None,
                attended: true,
            },
            Duration::from_secs(30),
        );
    }

    /// [`Session::call`] without a way to interrupt it.
    pub fn call_within<C: CommandSpec>(
        &self,
        args: &C::Args,
        timeout: Duration,
    ) -> Result<C::Result, ClientError> {
        self.call::<C>(args, timeout, &|| false)
    }

    /// Sends command `C` with its response routed to `subscription`, among the events
    /// ([`Session::send_routed`]); answers the request id.
    pub fn send_typed<C: CommandSpec>(
        &self,
        subscription: &Subscription,
        args: &C::Args,
    ) -> Result<u64, ClientError> {
        self.send_routed(subscription, C::COMMAND.name(), encode_args::<C>(args)?)
    }
}
