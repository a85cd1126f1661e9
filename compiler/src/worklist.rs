//! What both emitters (the walks of `emit`, the validators of `validation::emit`) share: the
//! queue of functions to emit, each once, their doc line, the stack guard every few levels, and
//! the dispatch on a value's shape.

use std::collections::{BTreeSet, VecDeque};

use proc_macro2::TokenStream;
use quote::quote;

/// How often (in schema levels) a generated walk checks for stack room.
const STACK_CHECK_EVERY: usize = 16;

/// The functions to emit: each (walk, node) once, in the order first asked for.
pub struct Worklist<W> {
    queued: BTreeSet<(W, usize)>,
    queue: VecDeque<(W, usize)>,
}

impl<W: Ord + Copy> Worklist<W> {
    pub fn new() -> Worklist<W> {
        Worklist {
            queued: BTreeSet::new(),
            queue: VecDeque::new(),
        }
    }

    /// Queues `walk` over `node` unless it was asked for before.
    pub fn request(&mut self, walk: W, node: usize) {
        if self.queued.insert((walk, node)) {
            self.queue.push_back((walk, node));
        }
    }

    /// The next function to emit.
    pub fn pop(&mut self) -> Option<(W, usize)> {
        self.queue.pop_front()
    }
}

/// Emits every queued function with `emit` (which may queue more), in a stable order for
/// readers: by node, then walk.
pub fn emit_all<W: Ord + Copy, E>(
    emitter: &mut E,
    work: impl Fn(&mut E) -> &mut Worklist<W>,
    emit: impl Fn(&mut E, W, usize) -> TokenStream,
) -> Vec<TokenStream> {
    let mut items = Vec::new();
    while let Some((walk, node)) = work(emitter).pop() {
        items.push((walk, node, emit(emitter, walk, node)));
    }
    items.sort_by_key(|(w, n, _)| (*n, *w));
    items.into_iter().map(|(_, _, f)| f).collect()
}

/// A function's doc line: what it does, where its node first occurs and how many other places
/// share it.
pub fn doc(what: &str, first_seen: &str, uses: usize) -> String {
    let more = match uses {
        1 => String::new(),
        2 => " and 1 other place".to_string(),
        u => format!(" and {} other places", u - 1),
    };
    format!(" {what} `{first_seen}`{more}.")
}

/// `body`, made sure of stack room for the levels below when its node is `height` levels high
/// and a multiple of the check interval.
pub fn guard_stack(height: usize, body: TokenStream) -> TokenStream {
    if height > 0 && height.is_multiple_of(STACK_CHECK_EVERY) {
        quote! { rt::grow(|| { #body }) }
    } else {
        body
    }
}

/// Dispatch on the value's shape: `object` runs with `map`, `array` with `items`; other values
/// are left alone. `unused` names what must be marked used when neither runs.
pub fn by_shape(object: Option<TokenStream>, array: Option<TokenStream>, unused: TokenStream) -> TokenStream {
    match (object, array) {
        (Some(o), Some(a)) => quote! {
            match x {
                Value::Object(map) => { #o }
                Value::Array(items) => { #a }
                _ => {}
            }
        },
        (Some(o), None) => quote! { if let Value::Object(map) = x { #o } },
        (None, Some(a)) => quote! { if let Value::Array(items) = x { #a } },
        (None, None) => quote! { let _ = #unused; },
    }
}
