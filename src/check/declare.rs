//! Declarations: every top-level name, type, record shape and parameter, before any body is checked.

use super::*;
use crate::diagnostic::Code;
use std::collections::HashSet;

impl<'p> Checker<'p> {
    pub(super) fn define(&mut self, name: &ast::Name, g: Global) {
        if self.prog.globals.contains_key(&name.node) {
            self.err(Diag::at(
                Code::CheckDuplicate,
                format!("`{}` is defined twice", name.node),
                name.span,
                "defined again here",
            ));
            return;
        }
        if Builtin::ALL
            .iter()
            .any(|(n, b)| *n == name.node && !b.gives_way())
        {
            self.err(Diag::at(
                Code::CheckBuiltinName,
                format!("`{}` is the name of a built-in function", name.node),
                name.span,
                "choose another name",
            ));
            return;
        }
        self.prog.globals.insert(name.node.clone(), g);
    }

    /// Declares an enum type (or an interpretation's readings); its id.
    fn declare_enum(&mut self, e: &ast::EnumDef) -> Option<u16> {
        if e.values.len() > usize::from(u16::MAX) || self.prog.enums.len() >= usize::from(u16::MAX)
        {
            self.err(Diag::at(
                Code::LimitEnum,
                format!("more than {} enums or enum values", u16::MAX),
                e.name.span,
                "too many",
            ));
            return None;
        }
        let id = u16::try_from(self.prog.enums.len()).unwrap_or(u16::MAX);
        self.define(&e.name, Global::EnumType(id));
        let mut values: Vec<EnumValueInfo> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for (i, v) in e.values.iter().enumerate() {
            if !seen.insert(&v.name.node) {
                self.err(Diag::at(
                    Code::CheckDuplicate,
                    format!("`{}` is listed twice in {}", v.name.node, e.name.node),
                    v.name.span,
                    "listed again",
                ));
                continue;
            }
            let i = u16::try_from(i).unwrap_or(u16::MAX);
            self.prog
                .enum_values
                .entry(v.name.node.clone())
                .or_default()
                .push((id, i));
            values.push(EnumValueInfo {
                name: rc(&v.name.node),
                display: v.display.as_deref().map(rc),
                sentence: v.sentence.as_deref().map(rc),
                span: v.name.span,
            });
        }
        self.prog.enums.push(EnumInfo {
            name: e.name.node.clone(),
            cite: cite_of(&e.cite),
            values,
            ordered: e.ordered,
        });
        self.same_words(id);
        Some(id)
    }

    /// Declares every definition of `file`, so that bodies can be checked in any order:
    /// types first (enums, then records, whose fields may name enums and records), then
    /// everything callable, with parameter types known.
    pub(super) fn declare(&mut self, file: &'p ast::File) {
        self.declare_enums(file);
        self.declare_records(file);
        // Record fields (now that every record name is known). A field may have the type
        // of a record declared later: shapes are worked out inner records first.
        self.records_containing_themselves(file);
        let order = record_order(file);
        self.record_shapes(&order);
        // The state's fields are names every expression can use.
        if let Some(ast::Item::State(st)) =
            file.items.iter().find(|i| matches!(i, ast::Item::State(_)))
        {
            for (i, f) in st.fields.iter().enumerate() {
                self.define(&f.name, Global::StateField(idx(i)));
            }
        }
        self.declare_callables(file);
        self.declare_lists(file);
    }

    /// The ruleset's title and die, its enums and its interpretations (an enum each).
    fn declare_enums(&mut self, file: &ast::File) {
        for item in &file.items {
            match item {
                ast::Item::Ruleset { title, cite } => {
                    if self.prog.title.is_some() {
                        self.err(Diag::at(
                            Code::CheckDuplicate,
                            "a second `ruleset` title",
                            title.span,
                            "the ruleset is already named",
                        ));
                    }
                    self.prog.title = Some(title.node.clone());
                    self.prog.cite = cite.as_ref().map(|c| rc(&c.node));
                }
                ast::Item::Die { sides } => {
                    let most = self.limits.sides;
                    if sides.node == 0 || sides.node > most {
                        self.err(
                            Diag::at(
                                Code::LimitDice,
                                format!("a die must have 1 to {most} sides"),
                                sides.span,
                                "here",
                            )
                            .help("the limit on a die's sides is set by --max-sides"),
                        );
                    }
                    if self.prog.default_die.is_some() {
                        self.err(Diag::at(
                            Code::CheckDuplicate,
                            "the ruleset's die is declared twice",
                            sides.span,
                            "declared again",
                        ));
                    }
                    self.prog.default_die = Some(sides.node);
                }
                ast::Item::Enum(e) => {
                    self.declare_enum(e);
                }
                ast::Item::LeftOut { name, why } => {
                    self.prog.left_out.insert(name.clone(), why.clone());
                }
                // An interpretation's readings are an enum of its own.
                ast::Item::Interpretation(d) => {
                    let e = ast::EnumDef {
                        name: d.name.clone(),
                        cite: d.cite.clone(),
                        values: d.readings.clone(),
                        ordered: false,
                    };
                    if let Some(id) = self.declare_enum(&e) {
                        let default = d.default.as_ref().and_then(|n| {
                            d.readings
                                .iter()
                                .position(|r| r.name.node == n.node)
                                .and_then(|i| u16::try_from(i).ok())
                        });
                        self.prog.interpretations.push(InterpretationInfo {
                            name: rc(&d.name.node),
                            text: rc(&d.text.node),
                            cite: cite_of(&d.cite),
                            readings: id,
                            default,
                        });
                    }
                }
                _ => {}
            }
        }
    }

    /// Every record type and the state, by name (their fields come later).
    fn declare_records(&mut self, file: &ast::File) {
        for item in &file.items {
            if let ast::Item::Record(r) | ast::Item::State(r) = item {
                let id = idx(self.prog.records.len());
                if matches!(item, ast::Item::State(_)) {
                    // The state is a record without a type name: its fields are names.
                    if self.prog.state.is_some() {
                        self.err(Diag::at(
                            Code::CheckDuplicate,
                            "a second `state` declaration",
                            r.name.span,
                            "the state is declared once",
                        ));
                        continue;
                    }
                    self.prog.state = Some(id);
                } else {
                    self.define(&r.name, Global::RecordType(id));
                }
                self.prog.records.push(RecordInfo {
                    name: r.name.node.clone(),
                    shape: Rc::new(
                        RecordShape::new(Some(r.name.node.clone()), vec![]).declared(id),
                    ),
                    defaults: vec![],
                    has_default: vec![],
                    default_values: vec![],
                    ranges: vec![],
                });
            }
        }
    }

    /// Constants, rules, tables and modifier lists, with parameter types known; each is
    /// queued for its body to be checked.
    fn declare_callables(&mut self, file: &'p ast::File) {
        for item in &file.items {
            match item {
                ast::Item::Const(c) => {
                    let id = idx(self.prog.consts.len());
                    self.define(&c.name, Global::Const(id));
                    let ty = c.ty.as_ref().map_or(Ty::Any, |t| self.ty(t).0);
                    self.prog.consts.push(ConstInfo {
                        name: rc(&c.name.node),
                        ty,
                        value: dummy(c.name.span),
                        slots: 0,
                        cite: cite_of(&c.cite),
                    });
                    self.pend.consts.push((c, State::Todo));
                }
                ast::Item::Rule(r) => {
                    let id = idx(self.prog.rules.len());
                    self.define(&r.name, Global::Rule(id));
                    let params = self.params(&r.params);
                    let ret = r.returns.as_ref().map_or(Ty::Any, |t| self.ty(t).0);
                    self.prog.rules.push(RuleInfo {
                        sig: signature(&r.name, params, ret, &r.cite),
                        body: dummy(r.name.span),
                    });
                    self.pend.rules.push((r, State::Todo));
                }
                ast::Item::Table(t) => {
                    let id = idx(self.prog.tables.len());
                    self.define(&t.name, Global::Table(id));
                    let mut params = self.params(&t.keys);
                    params.extend(self.params(&t.extra));
                    let ret = t.returns.as_ref().map_or(Ty::Any, |r| self.ty(r).0);
                    self.prog.tables.push(TableInfo {
                        sig: signature(&t.name, params, ret, &t.cite),
                        keys: t.keys.len(),
                        rows: vec![],
                    });
                    self.pend.tables.push((t, State::Todo));
                }
                ast::Item::Modifiers(m) => {
                    let id = idx(self.prog.modifiers.len());
                    self.define(&m.name, Global::Modifiers(id));
                    let params = self.params(&m.params);
                    self.prog.modifiers.push(ModifiersInfo {
                        sig: signature(&m.name, params, Ty::Int, &m.cite),
                        modifiers: vec![],
                    });
                    self.pend.modifiers.push((m, State::Todo));
                }
                _ => {}
            }
        }
    }

    /// Field types, ranges and which fields have defaults, for records in `order`
    /// (inner records first); each record is queued for its defaults to be checked.
    fn record_shapes(&mut self, order: &[&'p ast::RecordDef]) {
        for r in order.iter().copied() {
            let id = match self.prog.globals.get(&r.name.node) {
                Some(Global::RecordType(id)) => *id,
                _ if r.name.node == "state" => match self.prog.state {
                    Some(id) => id,
                    None => continue,
                },
                _ => continue,
            };
            let mut fields: Vec<(Rc<str>, Ty)> = Vec::new();
            let mut ranges = Vec::new();
            let mut has_default = Vec::new();
            for f in &r.fields {
                if fields.iter().any(|(n, _)| **n == *f.name.node) {
                    self.err(declared_twice("field", &f.name));
                    continue;
                }
                let (ty, range) = self.ty(&f.ty);
                fields.push((rc(&f.name.node), ty));
                ranges.push(range);
                has_default.push(f.default.is_some());
            }
            self.pend.records.push((id, r));
            if let Some(info) = self.prog.records.get_mut(id as usize) {
                info.shape =
                    Rc::new(RecordShape::new(Some(r.name.node.clone()), fields).declared(id));
                if info.shape.depth > MAX_VALUE_DEPTH || info.shape.size > MAX_VALUE_SIZE {
                    let d = Diag::at(
                        Code::LimitValueDepth,
                        format!("record {} nests records more than {MAX_VALUE_DEPTH} deep or holds more than {MAX_VALUE_SIZE} values", r.name.node),
                        r.name.span,
                        "too deep",
                    );
                    self.errors.push(d);
                }
                info.ranges = ranges;
                info.has_default = has_default;
            }
        }
    }

    /// A record with a field of its own type (directly or through others) would never
    /// end: an error, before any shape is worked out.
    fn records_containing_themselves(&mut self, file: &ast::File) {
        let records = record_defs(file);
        let field_records = |r: &ast::RecordDef| -> Vec<(String, Span)> {
            r.fields
                .iter()
                .flat_map(|f| type_names(&f.ty))
                .filter(|n| records.iter().any(|q| q.name.node == *n))
                .map(|n| (n.to_string(), r.name.span))
                .collect()
        };
        for r in &records {
            // Depth-first from r: does any path of record fields come back to r?
            let mut stack: Vec<String> = field_records(r).into_iter().map(|(n, _)| n).collect();
            let mut seen: Vec<String> = Vec::new();
            while let Some(n) = stack.pop() {
                if n == r.name.node {
                    self.err(
                        Diag::at(Code::CheckRecordCycle, format!("record {} contains itself", r.name.node), r.name.span, "a record inside itself never ends")
                            .help("a field cannot hold a record of the same type, directly or through other records"),
                    );
                    break;
                }
                if seen.contains(&n) {
                    continue;
                }
                if let Some(q) = records.iter().find(|q| q.name.node == n) {
                    stack.extend(field_records(q).into_iter().map(|(m, _)| m));
                }
                seen.push(n);
            }
        }
    }

    pub(super) fn params(&mut self, ps: &[ast::Param]) -> Vec<ParamInfo> {
        let mut out: Vec<ParamInfo> = Vec::new();
        for p in ps {
            if out.iter().any(|q| *q.name == *p.name.node) {
                self.err(declared_twice("parameter", &p.name));
                continue;
            }
            let (ty, range) = self.ty(&p.ty);
            // Defaults are checked once every name is declared (`param_defaults`).
            out.push(ParamInfo {
                name: rc(&p.name.node),
                ty,
                range,
                span: p.name.span,
                default: None,
                has_default: p.default.is_some() || p.needed,
                needed: p.needed,
            });
        }
        out
    }

    /// A range of lengths, `0"..`, `1/2"..12'`: both ends lengths, the lower first. A
    /// whole number at either end (`0..12"`) is refused: the range is of one kind.
    fn length_range(
        &mut self,
        lo: ast::RangeEnd,
        hi: Option<ast::RangeEnd>,
        span: Span,
    ) -> (Ty, Option<NumRange>) {
        let (lo, hi) = match (lo, hi) {
            (ast::RangeEnd::Length(lo), None) => (lo, None),
            (ast::RangeEnd::Length(lo), Some(ast::RangeEnd::Length(hi))) => (lo, Some(hi)),
            _ => {
                self.err(
                    Diag::at(
                        Code::CheckRange,
                        "this range mixes a whole number and a length: its two ends are both lengths or both whole numbers",
                        span,
                        "mixed units",
                    )
                    .help("write both ends as lengths, e.g. `0\"..12\"`"),
                );
                return (Ty::Length, None);
            }
        };
        if hi.is_some_and(|h| h.inches < lo.inches) {
            self.err(Diag::at(
                Code::CheckRange,
                "this range is reversed: its upper bound is below its lower, so it takes no length",
                span,
                "reversed",
            ));
        }
        (Ty::Length, Some(NumRange::Length(LengthRange { lo, hi })))
    }

    pub(super) fn ty(&mut self, t: &ast::TypeExpr) -> (Ty, Option<NumRange>) {
        match t {
            ast::TypeExpr::Group(m, span) => {
                let (member, range) = self.ty(m);
                if range.is_some() {
                    self.err(ranged_part(*span));
                }
                (Ty::Group(Box::new(member)), None)
            }
            ast::TypeExpr::Range { lo, hi, span } => {
                if hi.is_some_and(|h| h < *lo) {
                    self.err(Diag::at(
                        Code::CheckRange,
                        "this range is reversed: its upper bound is below its lower, so it takes no number",
                        *span,
                        "reversed",
                    ));
                }
                (Ty::Int, Some(NumRange::Int(IntRange { lo: *lo, hi: *hi })))
            }
            ast::TypeExpr::LengthRange { lo, hi, span } => self.length_range(*lo, *hi, *span),
            ast::TypeExpr::Pair(a, b, span) => {
                let (ta, ra) = self.ty(a);
                let (tb, rb) = self.ty(b);
                if ra.is_some() || rb.is_some() {
                    self.err(ranged_part(*span));
                }
                if ta != tb {
                    self.err(Diag::at(
                        Code::CheckPairType,
                        "both parts of a pair have one type",
                        *span,
                        "two different types",
                    ));
                }
                (self.value_depth(Ty::Pair(Box::new(ta)), *span), None)
            }
            ast::TypeExpr::Named(n) => {
                let ty = match n.node.as_str() {
                    "Int" => Ty::Int,
                    "Num" | "Number" => Ty::Num,
                    "Length" => Ty::Length,
                    "Time" | "Moves" => Ty::Time,
                    "Minutes" => Ty::Minutes,
                    "Bool" => Ty::Bool,
                    "Text" => Ty::Text,
                    other => match self.prog.globals.get(other) {
                        Some(Global::EnumType(e)) => Ty::Enum(*e),
                        Some(Global::RecordType(r)) => self
                            .prog
                            .records
                            .get(*r as usize)
                            .map_or(Ty::Any, |r| Ty::Record(r.shape.clone())),
                        _ => {
                            let mut names: Vec<String> =
                                ["Int", "Num", "Length", "Time", "Bool", "Text"]
                                    .iter()
                                    .map(|s| s.to_string())
                                    .collect();
                            names.extend(
                                self.prog
                                    .globals
                                    .iter()
                                    .filter(|(_, g)| {
                                        matches!(g, Global::EnumType(_) | Global::RecordType(_))
                                    })
                                    .map(|(k, _)| k.clone()),
                            );
                            let d = Diag::at(
                                Code::CheckUnknownType,
                                format!("unknown type `{other}`"),
                                n.span,
                                "not a type",
                            )
                            .suggest(other, names.iter().map(|s| s.as_str()));
                            self.err(d);
                            Ty::Any
                        }
                    },
                };
                (ty, None)
            }
        }
    }

    // ------------------------------------------------------------------ definitions
}

/// The record declarations of a file, the state's included, in file order.
fn record_defs(file: &ast::File) -> Vec<&ast::RecordDef> {
    file.items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Record(r) | ast::Item::State(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// The record declarations, each after every record its fields hold (depth first;
/// a cycle, already reported, is cut where it closes).
fn record_order(file: &ast::File) -> Vec<&ast::RecordDef> {
    let records = record_defs(file);
    let index: std::collections::HashMap<&str, usize> = records
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.node.as_str(), i))
        .collect();
    let mut order: Vec<&ast::RecordDef> = Vec::new();
    let mut state = vec![0u8; records.len()]; // 0 new, 1 open, 2 done
    for start in 0..records.len() {
        // An explicit stack of (record, next field to look at): no recursion.
        let mut stack = vec![(start, 0usize)];
        while let Some((i, f)) = stack.pop() {
            if state[i] == 2 {
                continue;
            }
            state[i] = 1;
            let field = records[i].fields.get(f);
            match field {
                None => {
                    state[i] = 2;
                    order.push(records[i]);
                }
                Some(field) => {
                    stack.push((i, f + 1));
                    for n in type_names(&field.ty) {
                        if let Some(&j) = index.get(n) {
                            if state[j] == 0 {
                                stack.push((j, 0));
                            }
                        }
                    }
                }
            }
        }
    }
    order
}

/// "field `men` is declared twice", at the second one.
fn declared_twice(what: &str, name: &ast::Name) -> Diag {
    Diag::at(
        Code::CheckDuplicate,
        format!("{what} `{}` is declared twice", name.node),
        name.span,
        "declared again",
    )
}

/// The type names a field's type mentions (`Unit`, or both parts of `(Unit, Unit)`).
fn type_names(t: &ast::TypeExpr) -> Vec<&str> {
    match t {
        ast::TypeExpr::Named(n) => vec![n.node.as_str()],
        ast::TypeExpr::Pair(a, b, _) => {
            let mut v = type_names(a);
            v.extend(type_names(b));
            v
        }
        ast::TypeExpr::Group(m, _) => type_names(m),
        ast::TypeExpr::Range { .. } | ast::TypeExpr::LengthRange { .. } => Vec::new(),
    }
}

/// Ranges are checked on record fields, parameters, results and `let`s; a range as the
/// members of a group or the parts of a pair would not be.
fn ranged_part(span: Span) -> Diag {
    Diag::at(
        Code::CheckRange,
        "a range cannot be the members of a group or the parts of a pair",
        span,
        "its range would not be checked",
    )
    .help("use a record with a ranged field (`record Count { n: 0..10 }`), or `Int`")
}

/// A definition's citation, as the program keeps it.
fn cite_of(cite: &Option<crate::span::Spanned<String>>) -> Option<Rc<str>> {
    cite.as_ref().map(|c| rc(&c.node))
}

/// A definition's signature as declared: its frame slots are counted when its body is
/// checked.
fn signature(
    name: &ast::Name,
    params: Vec<ParamInfo>,
    ret: Ty,
    cite: &Option<crate::span::Spanned<String>>,
) -> Signature {
    Signature {
        name: rc(&name.node),
        params,
        ret,
        cite: cite_of(cite),
        slots: 0,
        span: name.span,
    }
}
