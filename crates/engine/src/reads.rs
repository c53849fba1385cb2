//! What a stop has read from the system, so nothing is read twice while the program stays
//! where it is: children per parent id (`getChildVariables`), records per id
//! (`getVariables`), and the stack (kept on the thread by `debuggee::describe_stop_with`).
//!
//! Everything here belongs to one stop *and* one selected frame: a new stop, a frame switch
//! and `set` forget it ([`Reads::forget`]), and a read that was in flight while that happened
//! is answered but not kept (the thread's `reads.generation` moved).

use std::collections::HashMap;

use crate::engine::Engine;

/// Records kept at most per stop; past it, new reads are answered but not kept (a page
/// through a big table should not pile up in memory).
const MAX_KEPT: usize = 20_000;

/// One parent's children as the system answered them: its hierarchy rows (in order) and the
/// records they name.
#[derive(Debug, Clone, Default)]
struct Children {
    rows: Vec<adt::Hierarchy>,
    records: Vec<adt::Variable>,
}

#[derive(Debug, Default)]
pub(crate) struct Reads {
    children: HashMap<String, Children>,
    /// `getVariables` answers by id; `None`: the system knows no such id.
    records: HashMap<String, Option<adt::Variable>>,
    kept: usize,
    /// Moves whenever what was read stops being true.
    pub(crate) generation: u64,
}

impl Reads {
    /// The program moved, another frame was selected, or a value was changed.
    pub(crate) fn forget(&mut self) {
        self.children.clear();
        self.records.clear();
        self.kept = 0;
        self.generation += 1;
    }

    /// The children of all `parents`, when every one of them was read before.
    fn children_of(&self, parents: &[String]) -> Option<adt::ChildVariables> {
        let mut out = adt::ChildVariables::default();
        for p in parents {
            let c = self.children.get(p)?;
            out.hierarchies.extend(c.rows.iter().cloned());
            out.variables.extend(c.records.iter().cloned());
        }
        Some(out)
    }

    /// Keeps the answer for `parents`, split per parent.
    pub(crate) fn keep_children(&mut self, parents: &[String], answer: &adt::ChildVariables) {
        let size = answer.variables.len() + answer.hierarchies.len();
        if self.kept + size > MAX_KEPT {
            return;
        }
        self.kept += size;
        let mut by_id: HashMap<&str, &adt::Variable> = HashMap::new();
        for v in &answer.variables {
            by_id.entry(v.id.as_str()).or_insert(v);
        }
        // One pass over the rows: a page of a table asks for a hundred parents at once.
        let mut by_parent: HashMap<&str, Vec<&adt::Hierarchy>> = HashMap::new();
        for h in &answer.hierarchies {
            by_parent.entry(h.parent_id.as_str()).or_default().push(h);
        }
        for p in parents {
            let rows: Vec<adt::Hierarchy> = by_parent
                .get(p.as_str())
                .map(|rows| rows.iter().map(|h| (*h).clone()).collect())
                .unwrap_or_default();
            let records = rows
                .iter()
                .filter_map(|h| by_id.get(h.child_id.as_str()).map(|v| (*v).clone()))
                .collect();
            self.children.insert(p.clone(), Children { rows, records });
        }
    }

    fn keep_records(&mut self, asked: &[String], answer: &[adt::Variable]) {
        if self.kept + asked.len() > MAX_KEPT {
            return;
        }
        self.kept += asked.len();
        for id in asked {
            self.records.entry(id.clone()).or_insert(None);
        }
        for v in answer {
            self.records.insert(v.id.clone(), Some(v.clone()));
        }
    }
}

/// Reads of one thread's stop, answered from what it already read where possible.
pub(crate) struct Reader<'a> {
    pub(crate) engine: &'a Engine,
    pub(crate) thread: u32,
    pub(crate) client: &'a adt::Client,
}

impl Reader<'_> {
    fn generation(&self) -> Option<u64> {
        let inner = self.engine.lock();
        inner.threads.get(&self.thread).map(|d| d.reads.generation)
    }

    /// Runs `keep` on the thread's reads if nothing was forgotten since `generation`.
    fn keep(&self, generation: Option<u64>, keep: impl FnOnce(&mut Reads)) {
        let mut inner = self.engine.lock();
        if let Some(d) = inner.threads.get_mut(&self.thread)
            && Some(d.reads.generation) == generation
        {
            keep(&mut d.reads);
        }
    }

    /// Were the children of all `parents` read at this stop?
    pub(crate) fn knows_children(&self, parents: &[String]) -> bool {
        let inner = self.engine.lock();
        inner
            .threads
            .get(&self.thread)
            .is_some_and(|d| parents.iter().all(|p| d.reads.children.contains_key(p)))
    }

    /// `getChildVariables` of `parents`.
    pub(crate) async fn child_variables(
        &self,
        parents: &[String],
    ) -> Result<adt::ChildVariables, adt::AdtError> {
        let (generation, hit) = {
            let inner = self.engine.lock();
            let d = inner.threads.get(&self.thread);
            (
                d.map(|d| d.reads.generation),
                d.and_then(|d| d.reads.children_of(parents)),
            )
        };
        if let Some(hit) = hit {
            return Ok(hit);
        }
        let fresh = self.client.child_variables(parents).await?;
        self.keep(generation, |r| r.keep_children(parents, &fresh));
        Ok(fresh)
    }

    /// `getVariables` of `ids`: the ones read before from memory, the others in one request.
    /// Answers in the order of `ids`, unknown ids left out (as the system does).
    pub(crate) async fn variables(
        &self,
        ids: &[String],
    ) -> Result<Vec<adt::Variable>, adt::AdtError> {
        let generation = self.generation();
        let (mut known, missing): (HashMap<String, Option<adt::Variable>>, Vec<String>) = {
            let inner = self.engine.lock();
            let reads = inner.threads.get(&self.thread).map(|d| &d.reads);
            let mut known = HashMap::new();
            let mut missing = Vec::new();
            for id in ids {
                match reads.and_then(|r| r.records.get(id)) {
                    Some(hit) => {
                        known.insert(id.clone(), hit.clone());
                    }
                    None => missing.push(id.clone()),
                }
            }
            (known, missing)
        };
        if !missing.is_empty() {
            let fresh = self.client.variables(&missing).await?;
            self.keep(generation, |r| r.keep_records(&missing, &fresh));
            for id in &missing {
                known.entry(id.clone()).or_insert(None);
            }
            for v in fresh {
                known.insert(v.id.clone(), Some(v));
            }
        }
        Ok(ids
            .iter()
            .filter_map(|id| known.get(id).cloned().flatten())
            .collect())
    }
}

/// The answer of one part of a batch, or its error.
fn part<T>(
    answer: Option<Result<adt::BatchAnswer, adt::AdtError>>,
    operation: &str,
    parse: impl FnOnce(&str) -> Result<T, adt::codec::CodecError>,
) -> Result<T, adt::AdtError> {
    let unexpected = |status, message: String, body: &str| adt::AdtError::Unexpected {
        operation: operation.to_string(),
        status,
        message,
        body: body.chars().take(500).collect(),
    };
    let a = answer
        .ok_or_else(|| unexpected(None, "the batch answer has no part for it".into(), ""))??;
    parse(&a.body).map_err(|e| unexpected(Some(a.status), e.0, &a.body))
}

impl Reader<'_> {
    /// The record of `id` and the children of `parents` (its rows, say) in one round trip
    /// when the record was not read yet: `(record, Some(children))`. When the record is
    /// known: `(record, None)`, and the children are the caller's to read.
    pub(crate) async fn record_with_children(
        &self,
        id: &str,
        parents: &[String],
    ) -> Result<(Option<adt::Variable>, Option<adt::ChildVariables>), adt::AdtError> {
        let (generation, known) = {
            let inner = self.engine.lock();
            let d = inner.threads.get(&self.thread);
            (
                d.map(|d| d.reads.generation),
                d.and_then(|d| d.reads.records.get(id).cloned()),
            )
        };
        if let Some(record) = known {
            return Ok((record, None));
        }
        let ids = [id.to_string()];
        let calls = vec![
            adt::BatchCall::variables(&ids),
            adt::BatchCall::child_variables(parents),
        ];
        let mut answers = self.client.batch(calls).await?.into_iter();
        let records = part(answers.next(), "getVariables", adt::codec::parse_variables)?;
        let children = part(
            answers.next(),
            "getChildVariables",
            adt::codec::parse_child_variables,
        )?;
        self.keep(generation, |r| {
            r.keep_records(&ids, &records);
            r.keep_children(parents, &children);
        });
        Ok((records.into_iter().find(|v| v.id == id), Some(children)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(id: &str) -> adt::Variable {
        adt::Variable {
            id: id.into(),
            value: format!("value of {id}"),
            ..Default::default()
        }
    }

    fn row(parent: &str, child: &str) -> adt::Hierarchy {
        adt::Hierarchy {
            parent_id: parent.into(),
            child_id: child.into(),
            child_name: String::new(),
        }
    }

    #[test]
    fn children_are_kept_per_parent_and_answered_in_the_order_asked() {
        let mut reads = Reads::default();
        let answer = adt::ChildVariables {
            variables: vec![var("A-X"), var("B-Y"), var("B-Z")],
            hierarchies: vec![row("A", "A-X"), row("B", "B-Y"), row("B", "B-Z")],
        };
        reads.keep_children(&["A".into(), "B".into(), "C".into()], &answer);
        let b = reads.children_of(&["B".into()]).unwrap();
        assert_eq!(b.hierarchies.len(), 2);
        assert_eq!(b.variables[1].id, "B-Z");
        let ba = reads.children_of(&["B".into(), "A".into()]).unwrap();
        assert_eq!(ba.variables[2].id, "A-X");
        // C had no children: kept as known-empty.
        assert!(
            reads
                .children_of(&["C".into()])
                .unwrap()
                .variables
                .is_empty()
        );
        assert!(reads.children_of(&["D".into()]).is_none());
        reads.forget();
        assert!(reads.children_of(&["A".into()]).is_none());
        assert_eq!(reads.generation, 1);
    }

    #[test]
    fn records_remember_unknown_ids_and_stop_at_the_cap() {
        let mut reads = Reads::default();
        reads.keep_records(&["A".into(), "NOPE".into()], &[var("A")]);
        assert!(reads.records.get("A").unwrap().is_some());
        assert!(reads.records.get("NOPE").unwrap().is_none());
        let many: Vec<String> = (0..MAX_KEPT).map(|i| format!("V{i}")).collect();
        reads.keep_records(&many, &[]);
        assert!(!reads.records.contains_key("V0"), "over the cap: not kept");
    }
}
