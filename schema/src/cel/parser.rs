//! CEL's grammar (cel-go's CEL.g4, with the optional syntax Kubernetes turns on), as a
//! recursive descent that only checks: it keeps no tree but what the parse-time macro checks
//! need (is an argument a simple name, a field selection?).

use super::lexer::{Kind, Token};
use super::{Error, MAX_DEPTH};

/// Words CEL reserves: identifiers cannot be these (`true`, `false`, `null` and `in` are
/// tokens of their own).
pub(super) const RESERVED: [&str; 17] = [
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// What the macro checks need to know of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A plain identifier (`x`).
    Ident,
    /// A field selection (`a.b`), not optional.
    Select,
    Other,
}

/// An expression as the macro checks see it: its shape, and where cel-go places its node
/// (the operator of an operation, the `.` of a selection, the `(` of a call...), which is
/// where it reports a macro's bad argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    shape: Shape,
    at: usize,
}

impl Node {
    fn other(at: usize) -> Node {
        Node {
            shape: Shape::Other,
            at,
        }
    }
}

pub(super) struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Token>,
    /// Why the tokens stop early, if they do (reported when the parser gets there).
    lexer_error: Option<Error>,
    at: usize,
    depth: usize,
}

type Result<T> = std::result::Result<T, Error>;

impl<'a> Parser<'a> {
    pub fn new(src: &'a str, tokens: Vec<Token>, lexer_error: Option<Error>) -> Parser<'a> {
        Parser {
            src,
            tokens,
            lexer_error,
            at: 0,
            depth: 0,
        }
    }

    /// `start : expr EOF`.
    pub fn check(&mut self) -> Result<()> {
        self.expr()?;
        if self.peek().kind != Kind::Eof {
            return Err(self.unexpected("expecting <EOF>"));
        }
        Ok(())
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
    fn expr(&mut self) -> Result<Node> {
        self.nested(|p| {
            let node = p.binary(0)?;
            let question = p.peek().start;
            if p.eat("?") {
                p.binary(0)?;
                p.expect(":")?;
                p.expr()?;
                return Ok(Node::other(question));
            }
            Ok(node)
        })
    }

    /// The binary operators, loosest first: `||`, `&&`, relations, `+ -`, `* / %`.
    fn binary(&mut self, level: usize) -> Result<Node> {
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
            self.nested(|p| p.binary(level + 1))?;
            node = Node::other(t.start);
        }
        Ok(node)
    }

    /// `unary : member | '!'+ member | '-'+ member`
    fn unary(&mut self) -> Result<Node> {
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
                self.literal(t, true)?;
                return self.postfix(Node::other(first));
            }
            // cel-go drops an even number of `!` or `-`: `--x` is `x`.
            let node = self.member()?;
            return Ok(if count % 2 == 0 { node } else { Node::other(first) });
        }
        self.member()
    }

    /// `member : primary ('.' '?'? ident | '.' IDENT '(' args ')' | '[' '?'? expr ']')*`
    fn member(&mut self) -> Result<Node> {
        let node = self.primary()?;
        self.postfix(node)
    }

    /// The selections, calls and indexes after a primary expression.
    fn postfix(&mut self, mut node: Node) -> Result<Node> {
        loop {
            let here = self.peek().start;
            if self.eat(".") {
                let optional = self.eat("?");
                let t = self.peek();
                if !matches!(t.kind, Kind::Ident | Kind::EscapedIdent) {
                    return Err(self.unexpected("expecting IDENTIFIER"));
                }
                self.at += 1;
                if self.is("(") {
                    if optional || t.kind != Kind::Ident {
                        return Err(self.unexpected("expecting <EOF>"));
                    }
                    let name = t.text(self.src);
                    let open = self.peek().start;
                    let args = self.arguments()?;
                    self.receiver_macro(name, &args)?;
                    node = Node::other(open);
                } else {
                    let shape = if optional { Shape::Other } else { Shape::Select };
                    node = Node { shape, at: here };
                }
            } else if self.eat("[") {
                self.eat("?");
                self.expr()?;
                self.expect("]")?;
                node = Node::other(here);
            } else {
                return Ok(node);
            }
        }
    }

    /// `'(' (expr (',' expr)*)? ')'`: the arguments.
    fn arguments(&mut self) -> Result<Vec<Node>> {
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

    /// The checks cel-go's parser makes when it expands a macro called on a receiver.
    fn receiver_macro(&self, name: &str, args: &[Node]) -> Result<()> {
        let needs_name = matches!(
            (name, args.len()),
            ("all" | "exists" | "exists_one" | "filter", 2) | ("map", 2 | 3)
        );
        if needs_name && args[0].shape != Shape::Ident {
            return Err(Error::at(
                self.src,
                args[0].at,
                "argument must be a simple name".to_owned(),
            ));
        }
        Ok(())
    }

    fn not_reserved(&self, t: Token) -> Result<()> {
        let word = t.text(self.src);
        if RESERVED.contains(&word) {
            return Err(Error::at(self.src, t.start, format!("reserved identifier: {word}")));
        }
        Ok(())
    }

    /// `primary`: identifiers and calls, `(expr)`, lists, maps, messages, literals.
    fn primary(&mut self) -> Result<Node> {
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
                self.literal(t, false)?;
                Ok(Node::other(t.start))
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
                    self.literal(n, true)?;
                    Ok(Node::other(t.start))
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
                    self.list("]", |p| {
                        p.eat("?");
                        p.expr().map(|_| ())
                    })?;
                    Ok(Node::other(t.start))
                }
                "{" => {
                    self.at += 1;
                    self.list("}", |p| {
                        p.eat("?");
                        p.expr()?;
                        p.expect(":")?;
                        p.expr().map(|_| ())
                    })?;
                    Ok(Node::other(t.start))
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
    fn identifier(&mut self, leading_dot: bool) -> Result<Node> {
        let t = self.peek();
        self.at += 1;
        self.not_reserved(t)?;
        let name = t.text(self.src);
        if self.is("(") {
            let open = self.peek().start;
            let args = self.arguments()?;
            if name == "has" && !leading_dot && args.len() == 1 && args[0].shape != Shape::Select {
                return Err(Error::at(
                    self.src,
                    args[0].at,
                    "invalid argument to has() macro".to_owned(),
                ));
            }
            return Ok(Node::other(open));
        }
        // A qualified message name: `a.b.C{...}`.
        let mut look = self.at;
        loop {
            let is_dot = self.tokens[look].kind == Kind::Punct && self.tokens[look].text(self.src) == ".";
            if is_dot && self.tokens[look + 1].kind == Kind::Ident {
                look += 2;
                continue;
            }
            break;
        }
        let next = self.tokens[look];
        if next.kind == Kind::Punct && next.text(self.src) == "{" {
            self.at = look + 1;
            let brace = next.start;
            self.list("}", |p| {
                p.eat("?");
                let f = p.peek();
                if !matches!(f.kind, Kind::Ident | Kind::EscapedIdent) {
                    return Err(p.unexpected("expecting IDENTIFIER"));
                }
                p.at += 1;
                p.expect(":")?;
                p.expr().map(|_| ())
            })?;
            return Ok(Node::other(brace));
        }
        Ok(Node {
            shape: Shape::Ident,
            at: t.start,
        })
    }

    /// Checks a literal's value as cel-go converts it.
    fn literal(&self, t: Token, negative: bool) -> Result<()> {
        let text = t.text(self.src);
        let bad = |what: &str| Err(Error::at(self.src, t.start, format!("invalid {what} literal")));
        match t.kind {
            Kind::Int => {
                let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                    Some(hex) => (hex, 16),
                    None => (text, 10),
                };
                let fits = u128::from_str_radix(digits, radix)
                    .is_ok_and(|v| v <= i64::MAX as u128 || (negative && v == i64::MAX as u128 + 1));
                if !fits {
                    return bad("int");
                }
            }
            Kind::Uint => {
                let digits = &text[..text.len() - 1];
                let (digits, radix) = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
                    Some(hex) => (hex, 16),
                    None => (digits, 10),
                };
                if u64::from_str_radix(digits, radix).is_err() {
                    return bad("uint");
                }
            }
            Kind::Float if !text.parse::<f64>().is_ok_and(f64::is_finite) => return bad("double"),
            _ => {}
        }
        Ok(())
    }
}
