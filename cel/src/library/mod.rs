//! The functions CRD rules can call at the reference's compatibility version, evaluated: the
//! standard library (with timestamps and durations), then each extension library the API
//! server registers (cel-go's strings, sets and lists extensions; Kubernetes' regex, URL, IP,
//! CIDR, lists, format, quantity and semver libraries). Each module's `call` answers `None` for a function (or receiver) it
//! does not define, so that the next module is asked; `cost` gives the runtime cost cel-go
//! (and Kubernetes' cost functions) charge for a call.

pub(crate) mod cidr;
pub(crate) mod format;
pub(crate) mod ip;
pub(crate) mod lists;
pub(crate) mod quantity;
pub(crate) mod regex;
pub(crate) mod semver;
pub(crate) mod sets;
pub(crate) mod standard;
pub(crate) mod strings;
pub(crate) mod time;
pub(crate) mod urls;

use crate::value::{EvalError, Value};

/// A call's result: `None` when no module defines `function` for such a receiver and
/// arguments.
pub(crate) type Call = Option<Result<Value, EvalError>>;

/// A module's evaluation of a call.
type CallFn = fn(&str, Option<&Value>, &[Value]) -> Call;

/// A module's runtime cost of a call.
type CostFn = fn(&str, Option<&Value>, &[Value], &Value) -> Option<u64>;

/// Evaluates a call of `function` (with `target` for a receiver-style call) on evaluated
/// arguments.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Result<Value, EvalError> {
    let modules: [CallFn; 12] = [
        standard::call,
        strings::call,
        sets::call,
        regex::call,
        urls::call,
        ip::call,
        cidr::call,
        time::call,
        lists::call,
        format::call,
        quantity::call,
        semver::call,
    ];
    for m in modules {
        if let Some(r) = m(function, target, args) {
            return r;
        }
    }
    Err(EvalError::no_such_overload())
}

/// The runtime cost of a call that returned `result` (cel-go's actual cost, with Kubernetes'
/// library cost functions): 1 unless a module says otherwise.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], result: &Value) -> u64 {
    let modules: [CostFn; 12] = [
        standard::cost,
        strings::cost,
        sets::cost,
        regex::cost,
        urls::cost,
        ip::cost,
        cidr::cost,
        time::cost,
        lists::cost,
        format::cost,
        quantity::cost,
        semver::cost,
    ];
    modules
        .iter()
        .find_map(|m| m(function, target, args, result))
        .unwrap_or(1)
}

/// `string()` of a library type's value (an IP, a CIDR, a URL). Quantities, semvers and named
/// formats have no `string()` overload on the server (`string(dyn(quantity('1')))` is `no such
/// overload`), so they answer `None` here.
pub(crate) fn opaque_to_string(o: &dyn crate::value::Opaque) -> Option<String> {
    ip::to_string(o)
        .or_else(|| cidr::to_string(o))
        .or_else(|| urls::to_string(o))
}
