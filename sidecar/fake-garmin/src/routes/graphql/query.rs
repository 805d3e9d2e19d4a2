//! Just enough GraphQL to route Garmin's gateway queries: the root field name of the first
//! selection (`query{sleepSummariesScalar(startDate:"…", endDate:"…")}`) and its arguments
//! (strings, numbers, booleans, enums, lists, `$variables`). Nested selections are ignored: the
//! gateway's `*Scalar` fields return whole JSON documents.

use serde_json::{Map, Value};

/// The parsed root field: name, arguments, and the 1-based column it starts at.
#[derive(Debug, PartialEq)]
pub(crate) struct Root {
    pub(crate) name: String,
    pub(crate) args: Map<String, Value>,
    pub(crate) column: usize,
}

struct Cursor<'a> {
    chars: Vec<char>,
    pos: usize,
    variables: &'a Value,
}

impl Cursor<'_> {
    fn skip(&mut self) {
        while self.pos < self.chars.len()
            && (self.chars[self.pos].is_whitespace() || self.chars[self.pos] == ',')
        {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn ident(&mut self) -> Option<String> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            self.pos += 1;
        }
        (self.pos > start).then(|| self.chars[start..self.pos].iter().collect())
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip();
        match self.peek() {
            Some('"') => {
                self.pos += 1;
                let mut s = String::new();
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    match c {
                        '"' => return Ok(Value::String(s)),
                        '\\' => {
                            let e = self.peek().ok_or("unterminated string")?;
                            self.pos += 1;
                            s.push(match e {
                                'n' => '\n',
                                't' => '\t',
                                other => other,
                            });
                        }
                        other => s.push(other),
                    }
                }
                Err("unterminated string".into())
            }
            Some('[') => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip();
                    if self.peek() == Some(']') {
                        self.pos += 1;
                        return Ok(Value::Array(items));
                    }
                    if self.peek().is_none() {
                        return Err("unterminated list".into());
                    }
                    items.push(self.value()?);
                }
            }
            Some('$') => {
                self.pos += 1;
                let name = self.ident().ok_or("bad variable")?;
                Ok(self.variables.get(&name).cloned().unwrap_or(Value::Null))
            }
            Some(c) if c == '-' || c.is_ascii_digit() => {
                let start = self.pos;
                while self.peek().is_some_and(|c| {
                    c == '-' || c == '.' || c == 'e' || c == 'E' || c == '+' || c.is_ascii_digit()
                }) {
                    self.pos += 1;
                }
                let text: String = self.chars[start..self.pos].iter().collect();
                text.parse::<f64>().map(Value::from).map_err(|_| format!("bad number {text}"))
            }
            Some(_) => match self.ident().as_deref() {
                Some("true") => Ok(Value::Bool(true)),
                Some("false") => Ok(Value::Bool(false)),
                Some("null") => Ok(Value::Null),
                Some(other) => Ok(Value::String(other.to_owned())),
                None => Err(format!("unexpected character at {}", self.pos + 1)),
            },
            None => Err("unexpected end of query".into()),
        }
    }
}

/// Parses the root field of `query` (with `variables` for `$name` arguments).
pub(crate) fn root(query: &str, variables: &Value) -> Result<Root, String> {
    let mut c = Cursor { chars: query.chars().collect(), pos: 0, variables };
    while c.peek().is_some_and(|ch| ch != '{') {
        c.pos += 1;
    }
    if c.peek() != Some('{') {
        return Err("query has no selection set".into());
    }
    c.pos += 1;
    c.skip();
    let column = c.pos + 1;
    let name = c.ident().ok_or("selection set has no field")?;
    c.skip();
    let mut args = Map::new();
    if c.peek() == Some('(') {
        c.pos += 1;
        loop {
            c.skip();
            match c.peek() {
                Some(')') => break,
                None => return Err("unterminated argument list".into()),
                _ => {}
            }
            let key = c.ident().ok_or_else(|| format!("bad argument name at {}", c.pos + 1))?;
            c.skip();
            if c.peek() != Some(':') {
                return Err(format!("expected ':' after {key}"));
            }
            c.pos += 1;
            let v = c.value()?;
            args.insert(key, v);
        }
    }
    Ok(Root { name, args, column })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_root_and_arguments() {
        let q = "query{activityStatsScalar(\n aggregation:\"daily\", startDate:\"2024-06-10\", metrics:[\"duration\",\"distance\"], standardizedUnits: true, limit:40)}";
        let r = root(q, &Value::Null).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.name, "activityStatsScalar");
        assert_eq!(r.args["aggregation"], "daily");
        assert_eq!(r.args["metrics"][1], "distance");
        assert_eq!(r.args["standardizedUnits"], true);
        assert_eq!(r.args["limit"], 40.0);
    }

    #[test]
    fn reads_bare_root_and_variables() {
        let r = root("\n query {\n userGoalsScalar\n }", &Value::Null).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.name, "userGoalsScalar");
        let vars = serde_json::json!({"d": "2024-07-08"});
        let r = root("query Q($d: String){hrv(date:$d)}", &vars).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.args["date"], "2024-07-08");
    }
}
