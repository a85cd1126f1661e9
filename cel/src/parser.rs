//! CEL's grammar (cel-go's CEL.g4, with the optional syntax Kubernetes turns on), as a
//! recursive descent that builds cel-go's expression tree, macros expanded.

use crate::ast::{ACCUMULATOR, Comprehension, Expr, ExprKind, Id, Literal, MapEntry, StructField};
use crate::lexer::{Kind, Token};
use crate::{Error, MAX_DEPTH};

/// Words CEL reserves: identifiers cannot be these (`true`, `false`, `null` and `in`, the
/// first four of the escaping list, are tokens of their own).
pub(crate) const RESERVED: &[&str] = crate::types::RESERVED_SYMBOLS.split_at(4).1;

pub(crate) struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Token>,
    /// Why the tokens stop early, if they do (reported when the parser gets there).
    lexer_error: Option<Error>,
    at: usize,
    depth: usize,
    next_id: Id,
    /// Which macros are expanded.
    version: crate::Compatibility,
}

type Result<T> = std::result::Result<T, Error>;

impl<'a> Parser<'a> {
    pub fn new(
        src: &'a str,
        tokens: Vec<Token>,
        lexer_error: Option<Error>,
        version: crate::Compatibility,
    ) -> Parser<'a> {
        Parser {
            src,
            tokens,
            lexer_error,
            at: 0,
            depth: 0,
            next_id: 0,
            version,
        }
    }

    /// `start : expr EOF`.
    pub fn parse(&mut self) -> Result<Expr> {
        let e = self.expr()?;
        if self.peek().kind != Kind::Eof {
            return Err(self.unexpected("expecting <EOF>"));
        }
        Ok(e)
    }

    fn node(&mut self, offset: usize, kind: ExprKind) -> Expr {
        self.next_id += 1;
        Expr {
            id: self.next_id,
            offset,
            kind,
        }
    }

    fn call(&mut self, offset: usize, function: &str, target: Option<Expr>, args: Vec<Expr>) -> Expr {
        self.node(
            offset,
            ExprKind::Call {
                function: function.to_owned(),
                target: target.map(Box::new),
                args,
            },
        )
    }

    fn peek(&self) -> Token {
        self.tokens[self.at]
    }

    fn peek2(&self) -> Token {
        self.tokens[(self.at + 1).min(self.tokens.len() - 1)]
    }

    fn is(&self, punct: &str) -> bool {
        let t = self.peek();
        t.kind == Kind::Punct && t.text(self.src) == punct
    }

    fn eat(&mut self, punct: &str) -> bool {
        if self.is(punct) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, punct: &str) -> Result<()> {
        if self.eat(punct) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("expecting '{punct}'")))
        }
    }

    fn unexpected(&self, expecting: &str) -> Error {
        let t = self.peek();
        if t.kind == Kind::Error
            && let Some(e) = &self.lexer_error
        {
            return e.clone();
        }
        let found = if t.kind == Kind::Eof {
            "<EOF>".to_owned()
        } else {
            t.text(self.src).to_owned()
        };
        Error::syntax(self.src, t.start, format!("mismatched input '{found}' {expecting}"))
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let t = self.peek();
            return Err(Error::at(
                self.src,
                t.start,
                format!("expression recursion limit exceeded: {MAX_DEPTH}"),
            ));
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// `expr : conditionalOr ('?' conditionalOr ':' expr)?`
    fn expr(&mut self) -> Result<Expr> {
        self.nested(|p| {
            let cond = p.binary(0)?;
            let question = p.peek().start;
            if p.eat("?") {
                let then = p.binary(0)?;
                p.expect(":")?;
                let otherwise = p.expr()?;
                return Ok(p.call(question, "_?_:_", None, vec![cond, then, otherwise]));
            }
            Ok(cond)
        })
    }

    /// The binary operators, loosest first: `||`, `&&`, relations, `+ -`, `* / %`.
    fn binary(&mut self, level: usize) -> Result<Expr> {
        const LEVELS: [&[&str]; 5] = [
            &["||"],
            &["&&"],
            &["<", "<=", ">=", ">", "==", "!=", "in"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut node = self.binary(level + 1)?;
        // A left-leaning chain (`a + b + c`) nests as deep as it is long: it counts against
        // the recursion limit as cel-go's does.
        let depth = self.depth;
        loop {
            let t = self.peek();
            let op = match t.kind {
                Kind::In => "in",
                Kind::Punct => t.text(self.src),
                _ => break,
            };
            if !LEVELS[level].contains(&op) {
                break;
            }
            self.at += 1;
            let right = self.nested(|p| p.binary(level + 1))?;
            let function = match op {
                "in" => "@in",
                "||" => "_||_",
                "&&" => "_&&_",
                "<" => "_<_",
                "<=" => "_<=_",
                ">=" => "_>=_",
                ">" => "_>_",
                "==" => "_==_",
                "!=" => "_!=_",
                "+" => "_+_",
                "-" => "_-_",
                "*" => "_*_",
                "/" => "_/_",
                _ => "_%_",
            };
            node = self.call(t.start, function, None, vec![node, right]);
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                self.depth = depth;
                return Err(Error::at(
                    self.src,
                    t.start,
                    format!("expression recursion limit exceeded: {MAX_DEPTH}"),
                ));
            }
        }
        self.depth = depth;
        Ok(node)
    }

    /// `unary : member | '!'+ member | '-'+ member`
    fn unary(&mut self) -> Result<Expr> {
        if self.is("!") || self.is("-") {
            let first = self.peek().start;
            let op = self.peek().text(self.src).to_owned();
            let mut count = 0;
            while self.eat(&op) {
                count += 1;
            }
            if op == "-" && count == 1 && matches!(self.peek().kind, Kind::Int | Kind::Float) {
                // `-1`: one minus before a number is the literal's sign.
                let t = self.peek();
                self.at += 1;
                let lit = self.literal(t, true)?;
                let node = self.node(first, ExprKind::Literal(lit));
                return self.postfix(node);
            }
            // cel-go drops an even number of `!` or `-`: `--x` is `x`.
            let node = self.member()?;
            if count % 2 == 0 {
                return Ok(node);
            }
            let function = if op == "!" { "!_" } else { "-_" };
            return Ok(self.call(first, function, None, vec![node]));
        }
        self.member()
    }

    /// `member : primary ('.' '?'? ident | '.' IDENT '(' args ')' | '[' '?'? expr ']')*`
    fn member(&mut self) -> Result<Expr> {
        let node = self.primary()?;
        self.postfix(node)
    }

    /// The selections, calls and indexes after a primary expression.
    fn postfix(&mut self, mut node: Expr) -> Result<Expr> {
        loop {
            let here = self.peek().start;
            if self.eat(".") {
                let optional = self.eat("?");
                let t = self.peek();
                if !matches!(t.kind, Kind::Ident | Kind::EscapedIdent) {
                    return Err(self.unexpected("expecting IDENTIFIER"));
                }
                self.at += 1;
                let field = field_name(t.text(self.src));
                if self.is("(") {
                    if optional || t.kind != Kind::Ident {
                        return Err(self.unexpected("expecting <EOF>"));
                    }
                    let open = self.peek().start;
                    let args = self.arguments()?;
                    node = self.receiver_call(open, &field, node, args)?;
                } else if optional {
                    let name = self.node(t.start, ExprKind::Literal(Literal::String(field)));
                    node = self.call(here, "_?._", None, vec![node, name]);
                } else {
                    node = self.node(
                        here,
                        ExprKind::Select {
                            operand: Box::new(node),
                            field,
                            test_only: false,
                        },
                    );
                }
            } else if self.eat("[") {
                let optional = self.eat("?");
                let index = self.expr()?;
                self.expect("]")?;
                let function = if optional { "_[?_]" } else { "_[_]" };
                node = self.call(here, function, None, vec![node, index]);
            } else {
                return Ok(node);
            }
        }
    }

    /// `'(' (expr (',' expr)*)? ')'`: the arguments.
    fn arguments(&mut self) -> Result<Vec<Expr>> {
        self.expect("(")?;
        let mut args = Vec::new();
        if self.eat(")") {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat(")") {
                return Ok(args);
            }
            if !self.eat(",") {
                return Err(self.unexpected("expecting {',', ')'}"));
            }
        }
    }

    fn not_reserved(&self, t: Token) -> Result<()> {
        let word = t.text(self.src);
        if RESERVED.contains(&word) {
            return Err(Error::at(self.src, t.start, format!("reserved identifier: {word}")));
        }
        Ok(())
    }

    /// `primary`: identifiers and calls, `(expr)`, lists, maps, messages, literals.
    fn primary(&mut self) -> Result<Expr> {
        let t = self.peek();
        match t.kind {
            Kind::Int
            | Kind::Uint
            | Kind::Float
            | Kind::String
            | Kind::Bytes
            | Kind::True
            | Kind::False
            | Kind::Null => {
                self.at += 1;
                let lit = self.literal(t, false)?;
                Ok(self.node(t.start, ExprKind::Literal(lit)))
            }
            Kind::Ident => self.identifier(false),
            Kind::Punct => match t.text(self.src) {
                "." if self.peek2().kind == Kind::Ident => {
                    self.at += 1;
                    self.identifier(true)
                }
                "-" if matches!(self.peek2().kind, Kind::Int | Kind::Float) => {
                    // A negative literal after `!` (`!-1`): the sign belongs to the number.
                    self.at += 1;
                    let n = self.peek();
                    self.at += 1;
                    let lit = self.literal(n, true)?;
                    Ok(self.node(t.start, ExprKind::Literal(lit)))
                }
                "(" => {
                    // Parentheses only group: `has((a.b))` is `has(a.b)`.
                    self.at += 1;
                    let node = self.expr()?;
                    self.expect(")")?;
                    Ok(node)
                }
                "[" => {
                    self.at += 1;
                    let mut elements = Vec::new();
                    let mut optional_indices = Vec::new();
                    self.list("]", |p| {
                        if p.eat("?") {
                            optional_indices.push(elements.len());
                        }
                        elements.push(p.expr()?);
                        Ok(())
                    })?;
                    Ok(self.node(
                        t.start,
                        ExprKind::List {
                            elements,
                            optional_indices,
                        },
                    ))
                }
                "{" => {
                    self.at += 1;
                    let mut entries = Vec::new();
                    self.list("}", |p| {
                        let optional = p.eat("?");
                        let key = p.expr()?;
                        let colon = p.peek().start;
                        p.expect(":")?;
                        let value = p.expr()?;
                        p.next_id += 1;
                        let id = p.next_id;
                        let _ = colon;
                        entries.push(MapEntry {
                            id,
                            key,
                            value,
                            optional,
                        });
                        Ok(())
                    })?;
                    Ok(self.node(t.start, ExprKind::Map { entries }))
                }
                _ => Err(self.unexpected("expecting an expression")),
            },
            _ => Err(self.unexpected("expecting an expression")),
        }
    }

    /// Elements (each read by `item`, which for maps and messages also reads a key) up to
    /// `close`, with an optional trailing comma.
    fn list(&mut self, close: &str, mut item: impl FnMut(&mut Self) -> Result<()>) -> Result<()> {
        // The grammar allows a lone comma in an empty literal: `[,]`, `{,}`, `M{,}`.
        if self.eat(",") {
            return self.expect(close);
        }
        loop {
            if self.eat(close) {
                return Ok(());
            }
            item(self)?;
            if self.eat(close) {
                return Ok(());
            }
            if !self.eat(",") {
                return Err(self.unexpected(&format!("expecting {{',', '{close}'}}")));
            }
        }
    }

    /// An identifier, a global call, or a message literal (`a.b.C{f: 1}`).
    fn identifier(&mut self, leading_dot: bool) -> Result<Expr> {
        let t = self.peek();
        self.at += 1;
        self.not_reserved(t)?;
        let word = t.text(self.src);
        let name = if leading_dot {
            format!(".{word}")
        } else {
            word.to_owned()
        };
        if self.is("(") {
            let open = self.peek().start;
            let args = self.arguments()?;
            return self.global_call(open, &name, args);
        }
        // A qualified message name: `a.b.C{...}`.
        let mut look = self.at;
        let mut qualified = name.clone();
        loop {
            let is_dot = self.tokens[look].kind == Kind::Punct && self.tokens[look].text(self.src) == ".";
            if is_dot && self.tokens[look + 1].kind == Kind::Ident {
                qualified.push('.');
                qualified.push_str(self.tokens[look + 1].text(self.src));
                look += 2;
                continue;
            }
            break;
        }
        let next = self.tokens[look];
        if next.kind == Kind::Punct && next.text(self.src) == "{" {
            self.at = look + 1;
            let brace = next.start;
            let mut fields = Vec::new();
            self.list("}", |p| {
                let optional = p.eat("?");
                let f = p.peek();
                if !matches!(f.kind, Kind::Ident | Kind::EscapedIdent) {
                    return Err(p.unexpected("expecting IDENTIFIER"));
                }
                p.at += 1;
                p.expect(":")?;
                let value = p.expr()?;
                p.next_id += 1;
                fields.push(StructField {
                    id: p.next_id,
                    name: field_name(f.text(p.src)),
                    value,
                    optional,
                });
                Ok(())
            })?;
            return Ok(self.node(
                brace,
                ExprKind::Struct {
                    name: qualified,
                    fields,
                },
            ));
        }
        Ok(self.node(t.start, ExprKind::Ident(name)))
    }

    /// A global call, or the macro it names (`has`).
    fn global_call(&mut self, open: usize, name: &str, mut args: Vec<Expr>) -> Result<Expr> {
        if name == "has" && args.len() == 1 {
            let arg = args.pop().unwrap_or_else(|| unreachable!());
            return match arg.kind {
                ExprKind::Select { operand, field, .. } => Ok(self.node(
                    open,
                    ExprKind::Select {
                        operand,
                        field,
                        test_only: true,
                    },
                )),
                _ => Err(Error::at(
                    self.src,
                    arg.offset,
                    "invalid argument to has() macro".to_owned(),
                )),
            };
        }
        Ok(self.call(open, name, None, args))
    }

    /// `list.sortBy(x, key)` (cel-go's lists extension): the list bound to a hidden variable,
    /// then `@sortByAssociatedKeys` with the keys `map` computes.
    fn sort_by(&mut self, open: usize, target: Expr, args: Vec<Expr>) -> Result<Expr> {
        const INPUT: &str = "@__sortBy_input__";
        let sortable = matches!(
            target.kind,
            ExprKind::List { .. }
                | ExprKind::Select { .. }
                | ExprKind::Ident(_)
                | ExprKind::Comprehension(_)
                | ExprKind::Call { .. }
        );
        if !sortable {
            return Err(Error::at(
                self.src,
                target.offset,
                "sortBy can only be applied to a list, identifier, comprehension, call or select expression".to_owned(),
            ));
        }
        let input = self.node(open, ExprKind::Ident(INPUT.to_owned()));
        let keys = self.receiver_call(open, "map", input, args)?;
        let input = self.node(open, ExprKind::Ident(INPUT.to_owned()));
        let sorted = self.call(open, "@sortByAssociatedKeys", Some(input), vec![keys]);
        let empty = self.node(
            open,
            ExprKind::List {
                elements: vec![],
                optional_indices: vec![],
            },
        );
        let f = self.node(open, ExprKind::Literal(Literal::Bool(false)));
        let step = self.node(open, ExprKind::Ident(INPUT.to_owned()));
        Ok(self.node(
            open,
            ExprKind::Comprehension(Box::new(Comprehension {
                iter_var: "#unused".to_owned(),
                iter_var2: None,
                iter_range: empty,
                accu_var: INPUT.to_owned(),
                accu_init: target,
                loop_condition: f,
                loop_step: step,
                result: sorted,
            })),
        ))
    }

    /// A call on a receiver, or the macro it names.
    fn receiver_call(&mut self, open: usize, name: &str, target: Expr, mut args: Vec<Expr>) -> Result<Expr> {
        if name == "sortBy" && args.len() == 2 && self.version.has_sort_by() {
            return self.sort_by(open, target, args);
        }
        let one_var = matches!(
            (name, args.len()),
            ("all" | "exists" | "exists_one" | "filter" | "optMap" | "optFlatMap", 2) | ("map", 2 | 3)
        );
        let two_var = self.version.has_two_variable_comprehensions()
            && matches!(
                (name, args.len()),
                ("all" | "exists" | "existsOne" | "exists_one", 3)
                    | ("transformList" | "transformMap" | "transformMapEntry", 3 | 4)
            );
        if !one_var && !two_var {
            return Ok(self.call(open, name, Some(target), args));
        }
        let var = self.simple_name(&args[0])?;
        let var2 = if two_var {
            Some(self.simple_name(&args[1])?)
        } else {
            None
        };
        for v in std::iter::once(&var).chain(&var2) {
            if v == ACCUMULATOR {
                return Err(Error::at(
                    self.src,
                    args[0].offset,
                    "iteration variable overwrites accumulator variable".to_owned(),
                ));
            }
        }
        if let Some(v2) = &var2
            && *v2 == var
        {
            return Err(Error::at(
                self.src,
                args[1].offset,
                format!("duplicate variable name: {v2}"),
            ));
        }
        let rest: Vec<Expr> = args.drain(if two_var { 2.. } else { 1.. }).collect();
        if name == "optMap" || name == "optFlatMap" {
            return Ok(self.optional_map(open, name, target, var, rest));
        }
        let n_rest = rest.len();
        let accu = |p: &mut Self| p.node(open, ExprKind::Ident(ACCUMULATOR.to_owned()));
        let lit = |p: &mut Self, l: Literal| p.node(open, ExprKind::Literal(l));
        let mut rest = rest.into_iter();
        let mut arg = || rest.next().unwrap_or_else(|| unreachable!("the arity was matched"));
        let (init, condition, step, result) = match name {
            "all" => {
                let init = lit(self, Literal::Bool(true));
                let a = accu(self);
                let condition = self.call(open, "@not_strictly_false", None, vec![a]);
                let a = accu(self);
                let step = self.call(open, "_&&_", None, vec![a, arg()]);
                (init, condition, step, accu(self))
            }
            "exists" => {
                let init = lit(self, Literal::Bool(false));
                let a = accu(self);
                let not = self.call(open, "!_", None, vec![a]);
                let condition = self.call(open, "@not_strictly_false", None, vec![not]);
                let a = accu(self);
                let step = self.call(open, "_||_", None, vec![a, arg()]);
                (init, condition, step, accu(self))
            }
            "exists_one" | "existsOne" => {
                let init = lit(self, Literal::Int(0));
                let condition = lit(self, Literal::Bool(true));
                let a = accu(self);
                let one = lit(self, Literal::Int(1));
                let plus = self.call(open, "_+_", None, vec![a, one]);
                let a = accu(self);
                let step = self.call(open, "_?_:_", None, vec![arg(), plus, a]);
                let a = accu(self);
                let one = lit(self, Literal::Int(1));
                let result = self.call(open, "_==_", None, vec![a, one]);
                (init, condition, step, result)
            }
            "map" | "filter" | "transformList" => {
                let init = self.node(
                    open,
                    ExprKind::List {
                        elements: vec![],
                        optional_indices: vec![],
                    },
                );
                let condition = lit(self, Literal::Bool(true));
                let filtered = n_rest == 2;
                let (filter, value) = if name == "filter" {
                    let p = arg();
                    let x = self.node(open, ExprKind::Ident(var.clone()));
                    (Some(p), x)
                } else if filtered {
                    let p = arg();
                    (Some(p), arg())
                } else {
                    (None, arg())
                };
                let one = self.node(
                    open,
                    ExprKind::List {
                        elements: vec![value],
                        optional_indices: vec![],
                    },
                );
                let a = accu(self);
                let plus = self.call(open, "_+_", None, vec![a, one]);
                let step = match filter {
                    Some(p) => {
                        let a = accu(self);
                        self.call(open, "_?_:_", None, vec![p, plus, a])
                    }
                    None => plus,
                };
                (init, condition, step, accu(self))
            }
            _ => {
                // transformMap and transformMapEntry.
                let init = self.node(open, ExprKind::Map { entries: vec![] });
                let condition = lit(self, Literal::Bool(true));
                let filter = (n_rest == 2).then(&mut arg);
                let value = arg();
                let a = accu(self);
                let add = if name == "transformMap" {
                    let k = self.node(open, ExprKind::Ident(var.clone()));
                    self.call(open, "cel.@mapInsert", None, vec![a, k, value])
                } else {
                    self.call(open, "cel.@mapInsert", None, vec![a, value])
                };
                let step = match filter {
                    Some(p) => {
                        let a = accu(self);
                        self.call(open, "_?_:_", None, vec![p, add, a])
                    }
                    None => add,
                };
                (init, condition, step, accu(self))
            }
        };
        Ok(self.node(
            open,
            ExprKind::Comprehension(Box::new(Comprehension {
                iter_var: var,
                iter_var2: var2,
                iter_range: target,
                accu_var: ACCUMULATOR.to_owned(),
                accu_init: init,
                loop_condition: condition,
                loop_step: step,
                result,
            })),
        ))
    }

    /// `opt.optMap(x, f)`: `opt.hasValue() ? optional.of(f with x = opt.value()) :
    /// optional.none()`; `optFlatMap` without the `optional.of`.
    fn optional_map(&mut self, open: usize, name: &str, target: Expr, var: String, mut rest: Vec<Expr>) -> Expr {
        let body = rest.pop().unwrap_or_else(|| unreachable!("the arity was matched"));
        let copy = target.clone();
        let has = self.call(open, "hasValue", Some(target), vec![]);
        let value = self.call(open, "value", Some(copy), vec![]);
        let empty = self.node(
            open,
            ExprKind::List {
                elements: vec![],
                optional_indices: vec![],
            },
        );
        let f = self.node(open, ExprKind::Literal(Literal::Bool(false)));
        let x = self.node(open, ExprKind::Ident(var.clone()));
        let bound = self.node(
            open,
            ExprKind::Comprehension(Box::new(Comprehension {
                iter_var: "#unused".to_owned(),
                iter_var2: None,
                iter_range: empty,
                accu_var: var,
                accu_init: value,
                loop_condition: f,
                loop_step: x,
                result: body,
            })),
        );
        let some = if name == "optMap" {
            self.call(open, "optional.of", None, vec![bound])
        } else {
            bound
        };
        let none = self.call(open, "optional.none", None, vec![]);
        self.call(open, "_?_:_", None, vec![has, some, none])
    }

    fn simple_name(&self, e: &Expr) -> Result<String> {
        match &e.kind {
            // cel-go takes `.x` (a root-scoped name) as a simple name too.
            ExprKind::Ident(n) => Ok(n.clone()),
            _ => Err(Error::at(
                self.src,
                e.offset,
                "argument must be a simple name".to_owned(),
            )),
        }
    }

    /// A literal's value, checked as cel-go converts it.
    fn literal(&self, t: Token, negative: bool) -> Result<Literal> {
        let text = t.text(self.src);
        let bad = |what: &str| Err(Error::at(self.src, t.start, format!("invalid {what} literal")));
        match t.kind {
            Kind::Int => {
                let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                    Some(hex) => (hex, 16),
                    None => (text, 10),
                };
                let Ok(v) = u128::from_str_radix(digits, radix) else {
                    return bad("int");
                };
                if v <= i64::MAX as u128 {
                    let v = v as i64;
                    Ok(Literal::Int(if negative { -v } else { v }))
                } else if negative && v == i64::MAX as u128 + 1 {
                    Ok(Literal::Int(i64::MIN))
                } else {
                    bad("int")
                }
            }
            Kind::Uint => {
                let digits = &text[..text.len() - 1];
                let (digits, radix) = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
                    Some(hex) => (hex, 16),
                    None => (digits, 10),
                };
                match u64::from_str_radix(digits, radix) {
                    Ok(v) => Ok(Literal::Uint(v)),
                    Err(_) => bad("uint"),
                }
            }
            Kind::Float => match text.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(Literal::Double(if negative { -v } else { v })),
                _ => bad("double"),
            },
            Kind::String => Ok(Literal::String(
                String::from_utf8(crate::lexer::unescape(text))
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            )),
            Kind::Bytes => Ok(Literal::Bytes(crate::lexer::unescape(&text[1..]))),
            Kind::True => Ok(Literal::Bool(true)),
            Kind::False => Ok(Literal::Bool(false)),
            _ => Ok(Literal::Null),
        }
    }
}

/// A field name as written: back-quoted names lose their quotes.
fn field_name(text: &str) -> String {
    text.strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .unwrap_or(text)
        .to_owned()
}
