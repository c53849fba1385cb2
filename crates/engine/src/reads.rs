//! What a stop has read from the system, so nothing is read twice while the program stays
//! where it is: children per parent id (`getChildVariables`), records per id
//! (`getVariables`), and the stack (kept on the thread by `debuggee::describe_stop_with`).
//!
//! What is read belongs to one stop and is kept per frame ([`StopReads`]): variable ids mean
//! something else in each frame, and a request naming another frame (`at.rs`) reads that
//! frame's own reads, so switching between frames costs nothing once each was read. A new
//! stop and `set` forget all of them ([`StopReads::forget`]), and a read that was in flight
//! while that happened is answered but not kept (the thread's `reads.generation` moved).

use std::collections::HashMap;
use std::sync::Arc;

use jsonl::ErrorBody;

use crate::at::At;
use crate::engine::Engine;

/// Records kept at most per stop; past it, new reads are answered but not kept (a page
/// through a big table should not pile up in memory).
const MAX_KEPT: usize = 20_000;

/// One parent's children as the system answered them: its hierarchy rows (in order) and,
/// beside each row, the record it names (`None` when the answer has no record of that id).
/// Shared between what a stop keeps and who reads it: a page of a table is a thousand
/// records, read once and never copied.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Children {
    pub(crate) rows: Vec<adt::Hierarchy>,
    pub(crate) records: Vec<Option<adt::Variable>>,
}

impl Children {
    /// The rows that name a child, with the child's record.
    pub(crate) fn named(&self) -> impl Iterator<Item = (&adt::Hierarchy, &adt::Variable)> {
        self.rows
            .iter()
            .zip(&self.records)
            .filter(|(h, _)| !h.child_id.is_empty())
            .filter_map(|(h, v)| v.as_ref().map(|v| (h, v)))
    }
}

/// Splits an answer for `parents` into one [`Children`] per parent, in the order asked. The
/// rows and records are moved, not copied; only a row or record that two parents share (a
/// parent asked twice) is copied. A record is the first one of its id in the answer.
pub(crate) fn split(parents: &[String], answer: adt::ChildVariables) -> Vec<Arc<Children>> {
    let adt::ChildVariables {
        variables,
        hierarchies,
    } = answer;
    // Per parent, the indices of its rows; per row, the index of its record.
    let (plan, record_of): (Vec<Vec<usize>>, Vec<Option<usize>>) = {
        let hasher = foldhash::fast::RandomState::default;
        let mut by_id: HashMap<&str, usize, _> =
            HashMap::with_capacity_and_hasher(variables.len(), hasher());
        for (i, v) in variables.iter().enumerate() {
            by_id.entry(v.id.as_str()).or_insert(i);
        }
        let mut by_parent: HashMap<&str, Vec<usize>, _> = HashMap::with_hasher(hasher());
        for (i, h) in hierarchies.iter().enumerate() {
            by_parent.entry(h.parent_id.as_str()).or_default().push(i);
        }
        let plan = parents
            .iter()
            .map(|p| by_parent.get(p.as_str()).cloned().unwrap_or_default())
            .collect();
        let record_of = hierarchies
            .iter()
            .map(|h| by_id.get(h.child_id.as_str()).copied())
            .collect();
        (plan, record_of)
    };
    // How often each row is handed out: the last use takes it, earlier ones copy.
    let mut row_uses = vec![0u32; hierarchies.len()];
    for &i in plan.iter().flatten() {
        row_uses[i] += 1;
    }
    let mut rows: Vec<Option<adt::Hierarchy>> = hierarchies.into_iter().map(Some).collect();
    // Each parent's rows, with an empty place beside each for its record; `wanted` notes
    // (record, parent, place) for every place a record goes to.
    let mut wanted: Vec<(usize, usize, usize)> = Vec::with_capacity(rows.len());
    let mut children: Vec<Children> = Vec::with_capacity(plan.len());
    for (p, indices) in plan.into_iter().enumerate() {
        let mut c = Children {
            rows: Vec::with_capacity(indices.len()),
            records: Vec::with_capacity(indices.len()),
        };
        for i in indices {
            row_uses[i] = row_uses[i].saturating_sub(1);
            let row = if row_uses[i] == 0 {
                rows[i].take()
            } else {
                rows[i].clone()
            };
            let Some(row) = row else { continue };
            if let Some(r) = record_of[i] {
                wanted.push((r, p, c.rows.len()));
            }
            c.rows.push(row);
            c.records.push(None);
        }
        children.push(c);
    }
    // Each record moved once, straight to its place (a record is 500 bytes, a page a
    // thousand of them); one that goes to more than one place is copied to all but the
    // last. Records usually come in the order they are wanted: sorting is one look.
    wanted.sort_unstable();
    let mut wanted = wanted.into_iter().peekable();
    for (r, v) in variables.into_iter().enumerate() {
        let mut v = Some(v);
        while let Some((_, p, k)) = wanted.next_if(|w| w.0 == r) {
            let last = wanted.peek().is_none_or(|w| w.0 != r);
            let record = if last { v.take() } else { v.clone() };
            if let Some(place) = children.get_mut(p).and_then(|c| c.records.get_mut(k)) {
                *place = record;
            }
        }
    }
    children.into_iter().map(Arc::new).collect()
}

/// What one stop of a thread has read, per frame (0 = innermost).
#[derive(Debug, Default)]
pub(crate) struct StopReads {
    frames: HashMap<usize, Reads>,
    /// Moves whenever what was read stops being true.
    pub(crate) generation: u64,
}

impl StopReads {
    /// The program moved, or a value was changed (which any frame may show).
    pub(crate) fn forget(&mut self) {
        self.frames.clear();
        self.generation += 1;
    }

    /// What `frame` has read.
    pub(crate) fn frame(&self, frame: usize) -> Option<&Reads> {
        self.frames.get(&frame)
    }

    /// What `frame` has read, to add to.
    pub(crate) fn frame_mut(&mut self, frame: usize) -> &mut Reads {
        self.frames.entry(frame).or_default()
    }
}

/// What one frame of a stop has read.
#[derive(Debug, Default)]
pub(crate) struct Reads {
    children: HashMap<String, Arc<Children>>,
    /// `getVariables` answers by id; `None`: the system knows no such id.
    records: HashMap<String, Option<adt::Variable>>,
    kept: usize,
}

impl Reads {
    /// The children of all `parents`, when every one of them was read before.
    fn children_of(&self, parents: &[String]) -> Option<adt::ChildVariables> {
        let mut out = adt::ChildVariables::default();
        for c in self.split_children_of(parents)? {
            out.hierarchies.extend(c.rows.iter().cloned());
            out.variables.extend(c.records.iter().flatten().cloned());
        }
        Some(out)
    }

    /// [`Self::children_of`] per parent, shared rather than copied.
    fn split_children_of(&self, parents: &[String]) -> Option<Vec<Arc<Children>>> {
        parents
            .iter()
            .map(|p| self.children.get(p).cloned())
            .collect()
    }

    /// Keeps (a copy of) the answer for `parents`, split per parent.
    pub(crate) fn keep_children(&mut self, parents: &[String], answer: &adt::ChildVariables) {
        let size = answer.variables.len() + answer.hierarchies.len();
        if self.kept + size > MAX_KEPT {
            return;
        }
        self.keep_split(parents, &split(parents, answer.clone()), size);
    }

    /// Keeps an answer already split per parent (`size`: its records and rows).
    fn keep_split(&mut self, parents: &[String], split: &[Arc<Children>], size: usize) {
        if self.kept + size > MAX_KEPT {
            return;
        }
        self.kept += size;
        for (p, c) in parents.iter().zip(split) {
            self.children.insert(p.clone(), Arc::clone(c));
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
            self.records.insert(v.id.to_string(), Some(v.clone()));
        }
    }
}

/// Why a read failed: the system refused it, or the request could not be held at its frame
/// (the program moved on meanwhile, or the frame could not be selected).
#[derive(Debug)]
pub(crate) enum ReadError {
    Adt(adt::AdtError),
    Refused(ErrorBody),
}

impl From<adt::AdtError> for ReadError {
    fn from(e: adt::AdtError) -> Self {
        ReadError::Adt(e)
    }
}

impl From<ErrorBody> for ReadError {
    fn from(e: ErrorBody) -> Self {
        ReadError::Refused(e)
    }
}

impl ReadError {
    /// The protocol error, `context` saying what was being read.
    pub(crate) fn describe(&self, context: &str) -> ErrorBody {
        match self {
            ReadError::Adt(e) => crate::errors::from_adt(context, e),
            ReadError::Refused(e) => e.clone(),
        }
    }
}

/// Reads of one thread's stop at one frame ([`At`]), answered from what that frame already
/// read where possible; what it asks the system it asks with the session held at the frame.
pub(crate) struct Reader<'a> {
    pub(crate) engine: &'a Engine,
    pub(crate) at: &'a At,
}

impl Reader<'_> {
    pub(crate) fn thread(&self) -> u32 {
        self.at.thread
    }

    fn generation(&self) -> Option<u64> {
        let inner = self.engine.lock();
        inner
            .threads
            .get(&self.at.thread)
            .map(|d| d.reads.generation)
    }

    /// Looks at what this frame has read (`None`: the thread is gone).
    fn look<T>(&self, f: impl FnOnce(Option<&Reads>) -> T) -> (Option<u64>, T) {
        let inner = self.engine.lock();
        let d = inner.threads.get(&self.at.thread);
        (
            d.map(|d| d.reads.generation),
            f(d.and_then(|d| d.reads.frame(self.at.frame))),
        )
    }

    /// Runs `keep` on the frame's reads if nothing was forgotten since `generation`.
    fn keep(&self, generation: Option<u64>, keep: impl FnOnce(&mut Reads)) {
        let mut inner = self.engine.lock();
        if let Some(d) = inner.threads.get_mut(&self.at.thread)
            && Some(d.reads.generation) == generation
        {
            keep(d.reads.frame_mut(self.at.frame));
        }
    }

    /// Were the children of all `parents` read at this stop and frame?
    pub(crate) fn knows_children(&self, parents: &[String]) -> bool {
        self.look(|r| r.is_some_and(|r| parents.iter().all(|p| r.children.contains_key(p))))
            .1
    }

    /// `getChildVariables` of `parents`.
    pub(crate) async fn child_variables(
        &self,
        parents: &[String],
    ) -> Result<adt::ChildVariables, ReadError> {
        let (generation, hit) = self.look(|r| r.and_then(|r| r.children_of(parents)));
        if let Some(hit) = hit {
            return Ok(hit);
        }
        let _at = self.at.positioned(self.engine).await?;
        let fresh = self.at.client.child_variables(parents).await?;
        self.keep(generation, |r| r.keep_children(parents, &fresh));
        Ok(fresh)
    }

    /// `getChildVariables` of `parents`, one [`Children`] per parent in the order asked,
    /// shared with what the stop keeps (nothing is copied).
    pub(crate) async fn children(
        &self,
        parents: &[String],
    ) -> Result<Vec<Arc<Children>>, ReadError> {
        let (generation, hit) = self.look(|r| r.and_then(|r| r.split_children_of(parents)));
        if let Some(hit) = hit {
            return Ok(hit);
        }
        let _at = self.at.positioned(self.engine).await?;
        let fresh = self.at.client.child_variables(parents).await?;
        let size = fresh.variables.len() + fresh.hierarchies.len();
        let split = split(parents, fresh);
        self.keep(generation, |r| r.keep_split(parents, &split, size));
        Ok(split)
    }

    /// `getVariables` of `ids`: the ones read before from memory, the others in one request.
    /// Answers in the order of `ids`, unknown ids left out (as the system does).
    pub(crate) async fn variables(&self, ids: &[String]) -> Result<Vec<adt::Variable>, ReadError> {
        let generation = self.generation();
        let (mut known, missing): (HashMap<String, Option<adt::Variable>>, Vec<String>) = {
            let inner = self.engine.lock();
            let reads = inner
                .threads
                .get(&self.at.thread)
                .and_then(|d| d.reads.frame(self.at.frame));
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
            let _at = self.at.positioned(self.engine).await?;
            let fresh = self.at.client.variables(&missing).await?;
            self.keep(generation, |r| r.keep_records(&missing, &fresh));
            for id in &missing {
                known.entry(id.clone()).or_insert(None);
            }
            for v in fresh {
                known.insert(v.id.to_string(), Some(v));
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
    /// when the record was not read yet: `(record, Some(children per parent))`. When the
    /// record is known: `(record, None)`, and the children are the caller's to read.
    pub(crate) async fn record_with_children(
        &self,
        id: &str,
        parents: &[String],
    ) -> Result<(Option<adt::Variable>, Option<Vec<Arc<Children>>>), ReadError> {
        let (generation, known) = self.look(|r| r.and_then(|r| r.records.get(id).cloned()));
        if let Some(record) = known {
            return Ok((record, None));
        }
        let ids = [id.to_string()];
        let calls = vec![
            adt::BatchCall::variables(&ids),
            adt::BatchCall::child_variables(parents),
        ];
        let _at = self.at.positioned(self.engine).await?;
        let mut answers = self.at.client.batch(calls).await?.into_iter();
        let records = part(answers.next(), "getVariables", adt::codec::parse_variables)?;
        let children = part(
            answers.next(),
            "getChildVariables",
            adt::codec::parse_child_variables,
        )?;
        let size = children.variables.len() + children.hierarchies.len();
        let children = split(parents, children);
        self.keep(generation, |r| {
            r.keep_records(&ids, &records);
            r.keep_split(parents, &children, size);
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
            value: format!("value of {id}").into(),
            ..Default::default()
        }
    }

    fn row(parent: &str, child: &str) -> adt::Hierarchy {
        adt::Hierarchy {
            parent_id: parent.into(),
            child_id: child.into(),
            child_name: Default::default(),
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
        let mut stop = StopReads::default();
        *stop.frame_mut(1) = reads;
        assert!(
            stop.frame(1)
                .is_some_and(|r| r.children_of(&["A".into()]).is_some())
        );
        assert!(stop.frame(0).is_none(), "each frame has reads of its own");
        stop.forget();
        assert!(stop.frame(1).is_none());
        assert_eq!(stop.generation, 1);
    }

    /// What [`split`] answers, by its definition: for each parent asked, its rows in the
    /// answer's order, each with a copy of the first record of its child's id.
    fn split_by_definition(parents: &[String], answer: &adt::ChildVariables) -> Vec<Children> {
        parents
            .iter()
            .map(|p| {
                let rows: Vec<adt::Hierarchy> = answer
                    .hierarchies
                    .iter()
                    .filter(|h| h.parent_id == p.as_str())
                    .cloned()
                    .collect();
                let records = rows
                    .iter()
                    .map(|h| {
                        answer
                            .variables
                            .iter()
                            .find(|v| v.id == h.child_id)
                            .cloned()
                    })
                    .collect();
                Children { rows, records }
            })
            .collect()
    }

    proptest::proptest! {
        // Parents asked twice or not answered, ids answered twice or not at all, records in
        // any order.
        #[test]
        fn split_is_its_definition(
            parents in proptest::collection::vec(0u8..4, 0..6),
            edges in proptest::collection::vec((0u8..4, 0u8..6), 0..12),
            records in proptest::collection::vec((0u8..7, 0u8..3), 0..12),
        ) {
            let parents: Vec<String> = parents.iter().map(|p| format!("P{p}")).collect();
            let answer = adt::ChildVariables {
                variables: records
                    .iter()
                    .map(|(id, v)| adt::Variable {
                        id: format!("C{id}").into(),
                        value: format!("v{v}").into(),
                        ..Default::default()
                    })
                    .collect(),
                hierarchies: edges
                    .iter()
                    .map(|(p, c)| row(&format!("P{p}"), &format!("C{c}")))
                    .collect(),
            };
            let expected = split_by_definition(&parents, &answer);
            let got: Vec<Children> = split(&parents, answer)
                .into_iter()
                .map(|c| Arc::try_unwrap(c).unwrap_or_default())
                .collect();
            proptest::prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn split_moves_each_row_and_record_to_its_parent_and_copies_only_what_is_shared() {
        let mut second_y = var("B-Y");
        second_y.value = "other".into();
        let answer = adt::ChildVariables {
            // B-Y twice (the first counts), Z without a row, and B-N named but not answered.
            variables: vec![var("A-X"), var("B-Y"), var("Z"), second_y],
            hierarchies: vec![
                row("A", "A-X"),
                row("B", "B-Y"),
                row("B", "B-N"),
                row("B", ""),
                row("C", "B-Y"),
            ],
        };
        let parents: Vec<String> = ["B", "A", "D", "C", "A"].map(String::from).to_vec();
        let split = split(&parents, answer);
        assert_eq!(split.len(), 5, "one entry per parent asked");
        let ids = |c: &Children| -> Vec<(String, Option<String>)> {
            c.rows
                .iter()
                .zip(&c.records)
                .map(|(h, v)| {
                    (
                        h.child_id.to_string(),
                        v.as_ref().map(|v| v.value.to_string()),
                    )
                })
                .collect()
        };
        assert_eq!(
            ids(&split[0]),
            vec![
                ("B-Y".into(), Some("value of B-Y".into())),
                ("B-N".into(), None),
                (String::new(), None),
            ]
        );
        assert_eq!(
            split[0]
                .named()
                .map(|(h, _)| h.child_id.as_str())
                .collect::<Vec<_>>(),
            vec!["B-Y"],
            "rows without a child or a record name no cell"
        );
        assert_eq!(
            ids(&split[1]),
            vec![("A-X".into(), Some("value of A-X".into()))]
        );
        assert_eq!(
            split[1], split[4],
            "a parent asked twice gets the same children"
        );
        assert!(split[2].rows.is_empty(), "D had no children");
        // C names the record B named: both have it.
        assert_eq!(
            ids(&split[3]),
            vec![("B-Y".into(), Some("value of B-Y".into()))]
        );
        // Kept and answered again as the one answer it was.
        let mut reads = Reads::default();
        reads.keep_split(&parents, &split, 9);
        let again = reads.children_of(&["B".into(), "C".into()]).unwrap();
        assert_eq!(again.hierarchies.len(), 4);
        assert_eq!(again.variables.len(), 2);
        // Shared, not copied (A was asked twice: the second one is kept).
        assert!(Arc::ptr_eq(
            &reads.split_children_of(&["A".into()]).unwrap()[0],
            &split[4]
        ));
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
