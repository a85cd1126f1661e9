//! Prune + nulls + default of the workload's schema written by hand, fused into one walk per
//! object: the yardstick the compiled in-place passes are measured against. `counts`
//! checks that it gives the compiled pipeline's object on every document before counting.

use serde_json::{Map, Value};

/// Prunes (as a resource root: `apiVersion`, `kind`, `metadata` kept as they are), drops
/// non-nullable nulls without defaults and defaults `v`, in place.
pub fn prune_nulls_default(v: &mut Value) {
    let Value::Object(m) = v else { return };
    m.retain(|k, v| match k.as_str() {
        "apiVersion" | "kind" | "metadata" => true,
        "spec" => keep(v, spec),
        "status" => keep(v, status),
        _ => false,
    });
}

/// Whether a property without a default stays: a `null` goes, anything else is walked by `f`.
#[inline]
fn keep(v: &mut Value, f: fn(&mut Value)) -> bool {
    if v.is_null() {
        return false;
    }
    f(v);
    true
}

/// A property with a default stays (a `null` is replaced afterwards).
#[inline]
fn keep_defaulted(v: &mut Value, f: fn(&mut Value)) -> bool {
    f(v);
    true
}

/// A leaf schema: scalars as they are; an object or array given where the leaf is expected
/// is pruned by its shape (every field of an object goes).
#[inline]
fn leaf(v: &mut Value) {
    match v {
        Value::Object(m) => m.clear(),
        Value::Array(items) => items.iter_mut().for_each(leaf),
        _ => {}
    }
}

/// Sets `key` to `default()` when it is absent or `null`; walks what was set with `f`.
#[inline]
fn default(m: &mut Map<String, Value>, key: &str, default: fn() -> Value, f: fn(&mut Value)) {
    match m.get_mut(key) {
        Some(v) if !v.is_null() => {}
        Some(v) => {
            *v = default();
            f(v);
        }
        None => {
            let mut v = default();
            f(&mut v);
            m.insert(key.to_string(), v);
        }
    }
}

/// An array whose items are walked by `f`; anything else given for it, by its shape.
#[inline]
fn array(v: &mut Value, f: fn(&mut Value)) {
    match v {
        Value::Array(items) => items.iter_mut().for_each(f),
        Value::Object(m) => m.clear(),
        _ => {}
    }
}

/// A map of strings: `null` values go.
fn strings(v: &mut Value) {
    match v {
        Value::Object(m) => m.retain(|_, v| keep(v, leaf)),
        Value::Array(items) => items.iter_mut().for_each(leaf),
        _ => {}
    }
}

/// An object of schema node `f`, or another shape pruned by its shape.
macro_rules! object {
    ($v:expr, $m:ident => $body:block) => {
        match $v {
            Value::Object($m) => $body,
            Value::Array(items) => items.iter_mut().for_each(leaf),
            _ => {}
        }
    };
}

fn spec(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "image" => keep(v, leaf),
            "replicas" | "paused" | "imagePullPolicy" | "serviceAccountName" => keep_defaulted(v, leaf),
            "nodeSelector" | "podLabels" => keep(v, strings),
            "strategy" => keep_defaulted(v, strategy),
            "containers" => keep(v, |v| array(v, container)),
            "volumes" => keep(v, |v| array(v, volume)),
            "config" => keep(v, config),
            "service" => keep(v, service),
            "autoscaling" => keep(v, autoscaling),
            _ => false,
        });
        default(m, "replicas", || Value::from(1), leaf);
        default(m, "paused", || Value::Bool(false), leaf);
        default(m, "imagePullPolicy", || Value::from("IfNotPresent"), leaf);
        default(m, "serviceAccountName", || Value::from("default"), leaf);
        default(m, "strategy", || Value::Object(Map::new()), strategy);
    })
}

fn strategy(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "type" => keep_defaulted(v, leaf),
            "rollingUpdate" => keep(v, rolling_update),
            _ => false,
        });
        default(m, "type", || Value::from("RollingUpdate"), leaf);
    })
}

fn rolling_update(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "maxSurge" | "maxUnavailable" => keep_defaulted(v, leaf),
            _ => false,
        });
        default(m, "maxSurge", || Value::from("25%"), leaf);
        default(m, "maxUnavailable", || Value::from("25%"), leaf);
    })
}

fn container(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "name" | "image" => keep(v, leaf),
            "command" | "args" => keep(v, |v| array(v, leaf)),
            "ports" => keep(v, |v| array(v, port)),
            "env" => keep(v, |v| array(v, env)),
            "resources" => keep(v, resources),
            "probe" => keep(v, probe),
            _ => false,
        });
    })
}

fn port(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "name" | "containerPort" => keep(v, leaf),
            "protocol" => keep_defaulted(v, leaf),
            _ => false,
        });
        default(m, "protocol", || Value::from("TCP"), leaf);
    })
}

fn env(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "name" | "value" => keep(v, leaf),
            "valueFrom" => keep(v, value_from),
            _ => false,
        });
    })
}

fn value_from(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "secretKeyRef" => keep(v, secret_key_ref),
            "configMapKeyRef" => keep(v, config_map_key_ref),
            _ => false,
        });
    })
}

fn secret_key_ref(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "name" | "key" | "optional" => keep(v, leaf),
            _ => false,
        });
    })
}

fn config_map_key_ref(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "name" | "key" => keep(v, leaf),
            _ => false,
        });
    })
}

fn resources(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "limits" | "requests" => keep(v, strings),
            _ => false,
        });
    })
}

fn probe(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "path" | "port" | "initialDelaySeconds" => keep(v, leaf),
            "periodSeconds" | "timeoutSeconds" => keep_defaulted(v, leaf),
            _ => false,
        });
        default(m, "periodSeconds", || Value::from(10), leaf);
        default(m, "timeoutSeconds", || Value::from(1), leaf);
    })
}

fn volume(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "name" => keep(v, leaf),
            "configMap" => keep(v, config_map),
            "emptyDir" => keep(v, empty_dir),
            _ => false,
        });
    })
}

fn config_map(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "name" => keep(v, leaf),
            "defaultMode" => keep_defaulted(v, leaf),
            _ => false,
        });
        default(m, "defaultMode", || Value::from(420), leaf);
    })
}

fn empty_dir(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "medium" | "sizeLimit" => keep(v, leaf),
            _ => false,
        });
    })
}

/// Preserves unknown fields: only `logging` is walked, and only known `null`s go.
fn config(v: &mut Value) {
    if let Value::Object(m) = v {
        m.retain(|k, v| match k.as_str() {
            "logging" => keep(v, logging),
            _ => true,
        });
    }
}

fn logging(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "format" => keep(v, leaf),
            "level" => keep_defaulted(v, leaf),
            _ => false,
        });
        default(m, "level", || Value::from("info"), leaf);
    })
}

fn service(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "port" | "targetPort" => keep(v, leaf),
            "type" => keep_defaulted(v, leaf),
            "annotations" => keep(v, strings),
            _ => false,
        });
        default(m, "type", || Value::from("ClusterIP"), leaf);
    })
}

fn autoscaling(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "minReplicas" | "maxReplicas" | "targetCPUUtilizationPercentage" => keep(v, leaf),
            "enabled" => keep_defaulted(v, leaf),
            _ => false,
        });
        default(m, "enabled", || Value::Bool(false), leaf);
    })
}

fn status(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "observedGeneration" | "readyReplicas" | "phase" => keep(v, leaf),
            "conditions" => keep(v, |v| array(v, condition)),
            _ => false,
        });
    })
}

fn condition(v: &mut Value) {
    object!(v, m => {
        m.retain(|k, v| match k.as_str() {
            "type" | "status" | "reason" | "message" | "lastTransitionTime" => keep(v, leaf),
            _ => false,
        });
    })
}
