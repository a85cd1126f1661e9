//! cel-go's static cost estimator (`checker/cost.go`) with the API server's hooks: sizes from
//! the rule's declared type (apiextensions' `sizeEstimator`: a path `self.a.@items.b` walked
//! through the [`DeclType`], its `max_elements`) and call costs from apiserver
//! `pkg/cel/library/cost.go` `EstimateCallCost`; `has()` costs nothing
//! (`PresenceTestHasCost(false)`).
//!
//! Ported exactly: the coster's walk (identifiers, selections, calls with their overloads'
//! union, list/map/struct literals, comprehensions with their ranges' sizes, local variable
//! paths and sizes, entry sizes), cel-go's built-in overload costs, and Kubernetes' call costs
//! for authz, the list library, `url`, `lowerAscii`/`upperAscii`/`substring`/`trim`,
//! `replace`, `split`, `join`, `find`/`findAll`, IP and CIDR functions. Other Kubernetes call
//! costs (sets, quantity, semver, format, `indexOf` on strings, `string_format`...) and the
//! ext lists library's own estimators fall back to cel-go's default (1 plus the arguments).

use std::collections::HashMap;

use crate::ast::{ACCUMULATOR, Expr, ExprKind, Id, Literal};
use crate::check::{Checked, Reference};
use crate::types::{DeclType, Type};

/// `PerCallLimit`.
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// `RuntimeCELCostBudget`.
pub const RUNTIME_CEL_COST_BUDGET: u64 = 10_000_000;
/// `StaticEstimatedCostLimit`.
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;

/// apiextensions' `getCostErrorMessage`: how far over its limit a cost is, as the API server
/// says it (`what` is `estimated rule cost`, `estimated messageExpression cost`...).
///
/// ```
/// use kstruct_cel::cost::exceeds_budget_message;
/// assert!(exceeds_budget_message("estimated rule cost", 25, 10).starts_with(
///     "estimated rule cost exceeds budget by factor of 2.5x (try simplifying the rule",
/// ));
/// ```
pub fn exceeds_budget_message(what: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_owned()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{what} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}
/// `StaticEstimatedCRDCostLimit`.
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

const STRING_TRAVERSAL: f64 = 0.1;
const REGEX_STRING_LENGTH: f64 = 0.25;

/// A cost range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CostEstimate {
    /// Least cost.
    pub min: u64,
    /// Greatest cost.
    pub max: u64,
}

/// A size range (a string's length, a list's items...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeEstimate {
    /// Least size.
    pub min: u64,
    /// Greatest size.
    pub max: u64,
}

fn mul_factor(x: u64, y: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && y > 0.0 && xf > u64::MAX as f64 / y {
        return u64::MAX;
    }
    let c = (xf * y).ceil();
    if c >= 18_446_744_073_709_551_616.0 {
        return u64::MAX;
    }
    c as u64
}

#[allow(clippy::should_implement_trait)]
impl CostEstimate {
    /// `FixedCostEstimate`.
    pub fn fixed(c: u64) -> CostEstimate {
        CostEstimate { min: c, max: c }
    }
    /// Saturating sum.
    pub fn add(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
    /// Saturating product.
    pub fn multiply(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }
    /// The widest of both.
    pub fn union(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
    fn factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: mul_factor(self.min, f),
            max: mul_factor(self.max, f),
        }
    }
}

impl SizeEstimate {
    /// `FixedSizeEstimate`.
    pub fn fixed(s: u64) -> SizeEstimate {
        SizeEstimate { min: s, max: s }
    }
    /// Any size.
    pub fn unknown() -> SizeEstimate {
        SizeEstimate { min: 0, max: u64::MAX }
    }
    fn add(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
    fn multiply(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }
    fn factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: mul_factor(self.min, f),
            max: mul_factor(self.max, f),
        }
    }
    fn by_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(c.min),
            max: self.max.saturating_mul(c.max),
        }
    }
    fn union(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

#[derive(Clone, Copy)]
struct EntrySize {
    list: bool,
    key: SizeEstimate,
    val: SizeEstimate,
}

struct LocalVar {
    path: Vec<String>,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

/// Estimates an expression's cost as the API server does for a CRD rule whose `self` has the
/// declared type `root` (with its object names assigned; `None` for no size facts).
pub fn estimate(expr: &Expr, checked: &Checked, root: Option<&DeclType>) -> CostEstimate {
    let mut c = Coster {
        checked,
        root,
        paths: HashMap::new(),
        sizes: HashMap::new(),
        entries: HashMap::new(),
        locals: HashMap::new(),
    };
    c.cost(expr)
}

/// A node as the hooks see it: its path, type and computed size.
struct Node<'e> {
    expr: &'e Expr,
    path: Vec<String>,
    ty: Type,
    size: Option<SizeEstimate>,
}

struct Coster<'a> {
    checked: &'a Checked,
    root: Option<&'a DeclType>,
    paths: HashMap<Id, Vec<String>>,
    sizes: HashMap<Id, SizeEstimate>,
    entries: HashMap<Id, EntrySize>,
    locals: HashMap<String, Vec<LocalVar>>,
}

impl Coster<'_> {
    fn ty(&self, e: &Expr) -> Type {
        self.checked.types.get(&e.id).cloned().unwrap_or(Type::Dyn)
    }

    fn peek(&self, name: &str) -> Option<&LocalVar> {
        self.locals.get(name).and_then(|v| v.last())
    }

    fn path(&self, e: &Expr) -> Vec<String> {
        if let ExprKind::Ident(n) = &e.kind
            && let Some(v) = self.peek(n)
        {
            return v.path.clone();
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    fn node<'e>(&mut self, e: &'e Expr) -> Node<'e> {
        let mut path = self.path(e);
        if path.first().is_some_and(|p| p == ACCUMULATOR || p == "__result__") {
            path.clear();
        }
        let size = self.compute_size(e);
        Node {
            expr: e,
            path,
            ty: self.ty(e),
            size,
        }
    }

    /// apiextensions' `sizeEstimator.EstimateSize`.
    fn estimate_size(&self, path: &[String]) -> Option<SizeEstimate> {
        if path.is_empty() {
            return None;
        }
        let mut cur = self.root?;
        for name in &path[1..] {
            cur = match name.as_str() {
                "@items" | "@values" => cur.elem_type()?,
                "@keys" => cur.key_type()?,
                n => &cur.fields()?.get(n)?.ty,
            };
        }
        Some(SizeEstimate {
            min: 0,
            max: u64::try_from(cur.max_elements).unwrap_or(0),
        })
    }

    fn compute_size(&mut self, e: &Expr) -> Option<SizeEstimate> {
        if let Some(s) = self.sizes.get(&e.id) {
            return Some(*s);
        }
        if let Some(s) = expr_size(e) {
            return Some(s);
        }
        let path = self.path(e);
        if let Some(s) = self.estimate_size(&path) {
            self.sizes.insert(e.id, s);
            return Some(s);
        }
        if is_scalar(&self.ty(e)) {
            return Some(SizeEstimate::fixed(1));
        }
        if let ExprKind::Ident(n) = &e.kind
            && let Some(s) = self.peek(n).and_then(|v| v.size)
        {
            return Some(s);
        }
        None
    }

    fn size_or_unknown(&mut self, e: &Expr) -> SizeEstimate {
        self.compute_size(e).unwrap_or_else(SizeEstimate::unknown)
    }

    fn entry_size(&self, e: &Expr) -> Option<EntrySize> {
        if let Some(s) = self.entries.get(&e.id) {
            return Some(*s);
        }
        if let ExprKind::Ident(n) = &e.kind {
            return self.peek(n).and_then(|v| v.entry);
        }
        None
    }

    fn cost(&mut self, e: &Expr) -> CostEstimate {
        match &e.kind {
            ExprKind::Literal(_) => CostEstimate::default(),
            ExprKind::Ident(n) => {
                let name = match self.checked.references.get(&e.id) {
                    Some(Reference::Ident(r)) => r.clone(),
                    _ => n.clone(),
                };
                let path = self.peek(&name).map_or_else(|| vec![name.clone()], |v| v.path.clone());
                self.paths.insert(e.id, path);
                CostEstimate::fixed(1)
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                if let Some(Reference::Ident(name)) = self.checked.references.get(&e.id) {
                    // Resolved as a qualified name: cel-go rewrote the node to an identifier.
                    let path = self.peek(name).map_or_else(|| vec![name.clone()], |v| v.path.clone());
                    self.paths.insert(e.id, path);
                    return CostEstimate::fixed(1);
                }
                if *test_only {
                    return self.cost(operand);
                }
                let mut sum = self.cost(operand);
                if matches!(self.ty(operand), Type::Map(..) | Type::Object(_) | Type::TypeParam(_)) {
                    sum = sum.add(CostEstimate::fixed(1));
                }
                let mut p = self.path(operand);
                p.push(field.clone());
                self.paths.insert(e.id, p);
                sum
            }
            ExprKind::Call { function, target, args } => self.cost_call(e, function, target.as_deref(), args),
            ExprKind::List { elements, .. } => {
                let mut sum = CostEstimate::default();
                let mut item = SizeEstimate {
                    min: if elements.is_empty() { 0 } else { u64::MAX },
                    max: 0,
                };
                for el in elements {
                    sum = sum.add(self.cost(el));
                    item = item.union(self.size_or_unknown(el));
                }
                self.entries.insert(
                    e.id,
                    EntrySize {
                        list: true,
                        key: SizeEstimate::fixed(1),
                        val: item,
                    },
                );
                sum.add(CostEstimate::fixed(10))
            }
            ExprKind::Map { entries } => {
                let mut sum = CostEstimate::default();
                let start = if entries.is_empty() { 0 } else { u64::MAX };
                let mut key = SizeEstimate { min: start, max: 0 };
                let mut val = SizeEstimate { min: start, max: 0 };
                for en in entries {
                    sum = sum.add(self.cost(&en.key));
                    sum = sum.add(self.cost(&en.value));
                    key = key.union(self.size_or_unknown(&en.key));
                    val = val.union(self.size_or_unknown(&en.value));
                }
                self.entries.insert(e.id, EntrySize { list: false, key, val });
                sum.add(CostEstimate::fixed(30))
            }
            ExprKind::Struct { fields, .. } => {
                let mut sum = CostEstimate::default();
                for f in fields {
                    sum = sum.add(self.cost(&f.value));
                }
                sum.add(CostEstimate::fixed(40))
            }
            ExprKind::Comprehension(c) => self.cost_comprehension(e, c),
        }
    }

    fn push_local(&mut self, name: &str, e: &Expr) {
        let path = self.path(e);
        let entry = self.entry_size(e);
        let size = self.compute_size(e);
        self.locals
            .entry(name.to_owned())
            .or_default()
            .push(LocalVar { path, size, entry });
    }

    fn push_iter(&mut self, name: &str, range: &Expr, which: u8) {
        let entry = self.entry_size(range);
        let list = entry.map_or_else(|| matches!(self.ty(range), Type::List(_)), |en| en.list);
        let (size, sub) = match which {
            // single
            0 if list => (entry.map(|en| en.val), "@items"),
            0 => (entry.map(|en| en.key), "@keys"),
            // key
            1 => (entry.map(|en| en.key), if list { "@indices" } else { "@keys" }),
            // value
            _ => (entry.map(|en| en.val), if list { "@items" } else { "@values" }),
        };
        let mut path = self.path(range);
        path.push(sub.to_owned());
        self.locals.entry(name.to_owned()).or_default().push(LocalVar {
            path,
            size,
            entry: None,
        });
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(v) = self.locals.get_mut(name) {
            v.pop();
        }
    }

    fn cost_comprehension(&mut self, e: &Expr, c: &crate::ast::Comprehension) -> CostEstimate {
        let is_bind = matches!(&c.iter_range.kind, ExprKind::List { elements, .. } if elements.is_empty())
            && matches!(c.loop_condition.kind, ExprKind::Literal(Literal::Bool(false)))
            && c.accu_var != ACCUMULATOR;
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_local(&c.accu_var, &c.accu_init);
        if is_bind {
            sum = sum.add(self.cost(&c.result));
            self.pop_local(&c.accu_var);
            if let Some(s) = self.compute_size(&c.result) {
                self.sizes.insert(e.id, s);
            }
            if let Some(s) = self.entry_size(&c.result) {
                self.entries.insert(e.id, s);
            }
            return sum;
        }
        if let Some(v2) = &c.iter_var2 {
            self.push_iter(&c.iter_var, &c.iter_range, 1);
            self.push_iter(v2, &c.iter_range, 2);
        } else {
            self.push_iter(&c.iter_var, &c.iter_range, 0);
        }
        let loop_cost = self.cost(&c.loop_condition);
        let step_cost = self.cost(&c.loop_step);
        self.pop_local(&c.iter_var);
        if let Some(v2) = &c.iter_var2 {
            self.pop_local(v2);
        }
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        let range = self.size_or_unknown(&c.iter_range);
        sum = sum.add(range.by_cost(step_cost.add(loop_cost)));
        match &c.accu_init.kind {
            ExprKind::Literal(_) => {
                if let Some(s) = self.compute_size(&c.accu_init) {
                    self.sizes.insert(e.id, s);
                }
            }
            ExprKind::List { .. } | ExprKind::Map { .. } => {
                self.sizes.insert(e.id, range);
                if let Some(s) = self.entry_size(&c.loop_step) {
                    self.entries.insert(e.id, s);
                }
            }
            _ => {}
        }
        sum
    }

    fn cost_call(&mut self, e: &Expr, function: &str, target: Option<&Expr>, args: &[Expr]) -> CostEstimate {
        if function == "dyn" && target.is_none() && args.len() == 1 {
            let c = self.cost(&args[0]);
            if let Some(s) = self.compute_size(&args[0]) {
                self.sizes.insert(e.id, s);
            }
            if let Some(s) = self.entry_size(&args[0]) {
                self.entries.insert(e.id, s);
            }
            return CostEstimate::fixed(1).add(c);
        }
        let mut arg_costs = Vec::with_capacity(args.len());
        for a in args {
            arg_costs.push(self.cost(a));
        }
        let (name, member, overloads) = match self.checked.references.get(&e.id) {
            Some(Reference::Function {
                name,
                member,
                overloads,
            }) => (name.clone(), *member, overloads.clone()),
            _ => return CostEstimate::default(),
        };
        if overloads.is_empty() {
            return CostEstimate::default();
        }
        let mut sum = CostEstimate::default();
        let target = if member { target } else { None };
        if let Some(t) = target {
            sum = sum.add(self.cost(t));
        }
        let arg_nodes: Vec<Node> = args.iter().map(|a| self.node(a)).collect();
        let target_node = target.map(|t| self.node(t));
        let mut fn_cost = CostEstimate { min: u64::MAX, max: 0 };
        let mut result_size: Option<SizeEstimate> = None;
        for o in &overloads {
            let (cost, size) = self.function_cost(e, &name, o, target_node.as_ref(), &arg_nodes, &arg_costs);
            fn_cost = fn_cost.union(cost);
            if let Some(s) = size {
                result_size = Some(result_size.map_or(s, |r| r.union(s)));
            }
            if (o == "index_list" || o == "index_map") && !args.is_empty() {
                result_size = self.entry_size(&args[0]).map(|en| en.val);
                let mut p = self.path(&args[0]);
                p.push(if o == "index_list" { "@items" } else { "@values" }.to_owned());
                self.paths.insert(e.id, p);
            }
            if result_size.is_none() {
                result_size = self.compute_size(e);
            }
        }
        if let Some(s) = result_size {
            self.sizes.insert(e.id, s);
        }
        sum.add(fn_cost)
    }

    fn node_size(&self, n: &Node) -> SizeEstimate {
        n.size
            .or_else(|| self.estimate_size(&n.path))
            .unwrap_or_else(SizeEstimate::unknown)
    }

    /// `listElementNode`: the element of a list node (its path `.@items`, its element type).
    fn list_element_size(&self, list: &Node) -> Option<(Type, SizeEstimate)> {
        let Type::List(el) = &list.ty else { return None };
        if list.path.is_empty() {
            return None;
        }
        let mut path = list.path.clone();
        path.push("@items".into());
        let size = self.estimate_size(&path).unwrap_or_else(SizeEstimate::unknown);
        Some(((**el).clone(), size))
    }

    #[allow(clippy::too_many_lines)]
    fn k8s_call_cost(
        &self,
        function: &str,
        overload: &str,
        target: Option<&Node>,
        args: &[Node],
    ) -> Option<(CostEstimate, Option<SizeEstimate>)> {
        let one = CostEstimate::fixed(1);
        match function {
            // Equality of two values of the same library type: constant for IPs, CIDRs,
            // quantities and semvers; URLs by their size (1 when unknown).
            "_==_" if args.len() == 2 && args[0].ty == args[1].ty => {
                let name = args[0].ty.type_name();
                if [
                    crate::types::IP,
                    crate::types::CIDR,
                    crate::types::QUANTITY,
                    crate::types::SEMVER,
                ]
                .contains(&name)
                {
                    return Some((one, None));
                }
                if name == crate::types::URL {
                    let size = match (args[1].size, args[1].size) {
                        (Some(r), Some(l)) => r.union(l),
                        _ => SizeEstimate::fixed(1),
                    };
                    return Some((CostEstimate { min: 1, max: size.max }.factor(STRING_TRAVERSAL), None));
                }
                None
            }
            "check" => Some((CostEstimate::fixed(350_000), None)),
            "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name" | "allowed"
            | "reason" | "error" | "errored" => Some((one, None)),
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
                let t = target?;
                let mut el_cost = one;
                if let Some((el_ty, el_size)) = self.list_element_size(t) {
                    if matches!(el_ty, Type::String | Type::Bytes) {
                        el_cost = el_cost.add(el_size.factor(STRING_TRAVERSAL));
                    }
                    Some((self.node_size(t).by_cost(el_cost), None))
                } else if function == "includes" {
                    Some((self.node_size(t).by_cost(el_cost), None))
                } else {
                    Some((self.node_size(t).factor(STRING_TRAVERSAL), None))
                }
            }
            "url" if args.len() == 1 => {
                let sz = self.node_size(&args[0]);
                Some((sz.factor(STRING_TRAVERSAL), Some(sz)))
            }
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                let sz = self.node_size(target?);
                Some((sz.factor(STRING_TRAVERSAL), Some(sz)))
            }
            "replace" if args.len() >= 2 => {
                let sz = self.node_size(target?);
                let to = self.node_size(&args[0]);
                let with = self.node_size(&args[1]);
                let mut count = SizeEstimate::fixed(0);
                let mut retained = SizeEstimate::fixed(0);
                if to.min == 0 {
                    count.max = if sz.max < u64::MAX { sz.max + 1 } else { sz.max };
                    retained.max = sz.max;
                } else if with.max <= to.min {
                    retained.max = sz.max;
                } else {
                    count.max = (sz.max as f64 / to.min as f64).ceil() as u64;
                }
                if to.max == 0 {
                    count.min = if sz.min < u64::MAX { sz.min + 1 } else { sz.min };
                    retained.min = sz.min;
                } else if to.max <= with.min {
                    retained.min = sz.min;
                } else {
                    count.min = (sz.min as f64 / to.max as f64).ceil() as u64;
                }
                let size = count.multiply(with).add(retained);
                Some((sz.factor(2.0 * STRING_TRAVERSAL), Some(size)))
            }
            "split" => {
                let sz = self.node_size(target?);
                let mut max = sz.max;
                if let Some(ExprKind::Literal(Literal::Int(i))) = args.get(1).map(|a| &a.expr.kind) {
                    max = *i as u64;
                }
                Some((sz.factor(2.0 * STRING_TRAVERSAL), Some(SizeEstimate { min: 0, max })))
            }
            "join" => {
                let t = target?;
                let list = self.node_size(t);
                let mut sz = SizeEstimate::fixed(0);
                if let Some((_, el)) = self.list_element_size(t) {
                    sz = list.multiply(el);
                }
                if let Some(sep) = args.first() {
                    let sep = self.node_size(sep);
                    let seps = SizeEstimate {
                        min: list.min.saturating_sub(1),
                        max: list.max.saturating_sub(1),
                    };
                    sz = sz.add(sep.multiply(seps));
                }
                Some((sz.factor(STRING_TRAVERSAL), Some(sz)))
            }
            "find" | "findAll" if !args.is_empty() => {
                let sz = self.node_size(target?);
                let str_cost = sz.add(SizeEstimate::fixed(1)).factor(STRING_TRAVERSAL);
                let re = self.node_size(&args[0]).factor(REGEX_STRING_LENGTH);
                Some((str_cost.multiply(re), Some(SizeEstimate { min: 0, max: sz.max })))
            }
            "cidr" | "isIP" | "isCIDR" if !args.is_empty() => {
                Some((self.node_size(&args[0]).factor(STRING_TRAVERSAL), None))
            }
            "ip" if overload == "cidr_ip" => Some((one, None)),
            "ip" if !args.is_empty() => Some((self.node_size(&args[0]).factor(STRING_TRAVERSAL), None)),
            "ip.isCanonical" if !args.is_empty() => {
                Some((self.node_size(&args[0]).factor(2.0 * STRING_TRAVERSAL), None))
            }
            "masked"
            | "prefixLength"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast" => Some((one, None)),
            "containsIP" if !args.is_empty() => {
                let sz = SizeEstimate { min: 4, max: 16 };
                let mut c = sz.add(sz).factor(STRING_TRAVERSAL);
                if overload == "cidr_contains_ip_string" {
                    let s = self.node_size(&args[0]);
                    c = c.add(CostEstimate { min: s.min, max: s.max }.factor(STRING_TRAVERSAL));
                }
                Some((c, None))
            }
            "containsCIDR" if !args.is_empty() => {
                let sz = SizeEstimate { min: 4, max: 16 };
                let mut c = sz.add(sz).factor(STRING_TRAVERSAL);
                c = c.add(sz.factor(STRING_TRAVERSAL)).add(one);
                if overload == "cidr_contains_cidr_string" {
                    let s = self.node_size(&args[0]);
                    c = c.add(CostEstimate { min: s.min, max: s.max }.factor(STRING_TRAVERSAL));
                }
                Some((c, None))
            }
            _ => None,
        }
    }

    fn function_cost(
        &mut self,
        e: &Expr,
        function: &str,
        overload: &str,
        target: Option<&Node>,
        args: &[Node],
        arg_costs: &[CostEstimate],
    ) -> (CostEstimate, Option<SizeEstimate>) {
        let arg_sum = arg_costs.iter().fold(CostEstimate::default(), |a, b| a.add(*b));
        if let Some((c, size)) = self.k8s_call_cost(function, overload, target, args) {
            return (c.add(arg_sum), size);
        }
        let size_of = |n: &Node| n.size.unwrap_or_else(SizeEstimate::unknown);
        match overload {
            "string_format" => {
                if let Some(t) = target {
                    return (size_of(t).factor(STRING_TRAVERSAL).add(arg_sum), None);
                }
            }
            "string_to_bytes" if args.len() == 1 => {
                let sz = size_of(&args[0]);
                return (
                    sz.factor(STRING_TRAVERSAL).add(arg_sum),
                    Some(SizeEstimate {
                        min: sz.min,
                        max: sz.max.saturating_mul(4),
                    }),
                );
            }
            "bytes_to_string" if args.len() == 1 => {
                let sz = size_of(&args[0]);
                return (
                    sz.factor(STRING_TRAVERSAL).add(arg_sum),
                    Some(SizeEstimate {
                        min: sz.min / 4,
                        max: sz.max,
                    }),
                );
            }
            "strings_quote" if args.len() == 1 => {
                let sz = size_of(&args[0]);
                return (
                    sz.factor(STRING_TRAVERSAL).add(arg_sum),
                    Some(SizeEstimate {
                        min: sz.min.saturating_add(2),
                        max: sz.max.saturating_mul(2).saturating_add(2),
                    }),
                );
            }
            "starts_with_string" | "ends_with_string" if args.len() == 1 => {
                return (size_of(&args[0]).factor(STRING_TRAVERSAL).add(arg_sum), None);
            }
            "in_list" if args.len() == 2 => return (size_of(&args[1]).factor(1.0).add(arg_sum), None),
            "matches_string" if args.len() == 1 => {
                if let Some(t) = target {
                    let s = size_of(t).add(SizeEstimate::fixed(1)).factor(STRING_TRAVERSAL);
                    let r = size_of(&args[0]).factor(REGEX_STRING_LENGTH);
                    return (s.multiply(r).add(arg_sum), None);
                }
            }
            "contains_string" if args.len() == 1 => {
                if let Some(t) = target {
                    let s = size_of(t).factor(STRING_TRAVERSAL);
                    let sub = size_of(&args[0]).factor(STRING_TRAVERSAL);
                    return (s.multiply(sub).add(arg_sum), None);
                }
            }
            "logical_or" | "logical_and" if arg_costs.len() == 2 => {
                let (l, r) = (arg_costs[0], arg_costs[1]);
                return (
                    CostEstimate {
                        min: l.min,
                        max: l.add(r).max,
                    },
                    None,
                );
            }
            "conditional" if args.len() == 3 => {
                let size = size_of(&args[1]).union(size_of(&args[2]));
                if let (Some(a), Some(b)) = (self.entry_size(args[1].expr), self.entry_size(args[2].expr)) {
                    self.entries.insert(
                        e.id,
                        EntrySize {
                            list: a.list,
                            key: a.key.union(b.key),
                            val: a.val.union(b.val),
                        },
                    );
                }
                return (arg_costs[0].add(arg_costs[1].union(arg_costs[2])), Some(size));
            }
            "add_string" | "add_bytes" | "add_list" if args.len() == 2 => {
                let size = size_of(&args[0]).add(size_of(&args[1]));
                if let (Some(a), Some(b)) = (self.entry_size(args[0].expr), self.entry_size(args[1].expr)) {
                    self.entries.insert(
                        e.id,
                        EntrySize {
                            list: a.list,
                            key: a.key.union(b.key),
                            val: a.val.union(b.val),
                        },
                    );
                }
                if overload == "add_list" {
                    return (CostEstimate::fixed(1).add(arg_sum), Some(size));
                }
                return (size.factor(STRING_TRAVERSAL).add(arg_sum), Some(size));
            }
            "less_string"
            | "greater_string"
            | "less_equals_string"
            | "greater_equals_string"
            | "less_bytes"
            | "greater_bytes"
            | "less_equals_bytes"
            | "greater_equals_bytes"
            | "equals"
            | "not_equals"
                if args.len() == 2 =>
            {
                let smallest = size_of(&args[0]).max.min(size_of(&args[1]).max);
                let min = u64::from(smallest > 0);
                return (
                    CostEstimate { min, max: smallest }
                        .factor(STRING_TRAVERSAL)
                        .add(arg_sum),
                    None,
                );
            }
            _ => {}
        }
        (CostEstimate::fixed(1).add(arg_sum), None)
    }
}

fn expr_size(e: &Expr) -> Option<SizeEstimate> {
    let v = match &e.kind {
        ExprKind::Literal(Literal::String(s)) => s.chars().count() as u64,
        ExprKind::Literal(Literal::Bytes(b)) => b.len() as u64,
        ExprKind::Literal(_) => 1,
        ExprKind::List { elements, .. } => elements.len() as u64,
        ExprKind::Map { entries } => entries.len() as u64,
        _ => return None,
    };
    Some(SizeEstimate::fixed(v))
}

fn is_scalar(t: &Type) -> bool {
    match t {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => true,
        _ => t.optional_param().is_some_and(is_scalar),
    }
}

#[cfg(test)]
mod tests;
