//! Parsed rules, kept per thread so that a rule is parsed once, not at every node and every
//! object it checks.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use kstruct_cel::ast::Expr;

/// Parsed rules and messageExpressions held by a thread at most; past it the cache starts
/// again (a process checking many CRDs must not grow without bound).
const MAX_CACHED: usize = 4096;

thread_local! {
    static PROGRAMS: RefCell<HashMap<String, Result<Arc<Expr>, String>>> = RefCell::new(HashMap::new());
}

/// The parsed expression, or the parser's error as the reference prints it.
pub(super) fn get(src: &str) -> Result<Arc<Expr>, String> {
    PROGRAMS.with(|cache| {
        if let Some(p) = cache.borrow().get(src) {
            return p.clone();
        }
        let parsed = kstruct_cel::parse(src).map(Arc::new).map_err(|e| e.to_string());
        let mut cache = cache.borrow_mut();
        if cache.len() >= MAX_CACHED {
            cache.clear();
        }
        cache.insert(src.to_owned(), parsed.clone());
        parsed
    })
}
