//! Loading function groups: the files of a group (`<group>.fugr.xml`, one
//! `<group>.fugr.<member>.abap` per module and include) are kept as they arrive; each change
//! rebuilds the group's program, its objects (the group, each module, each include) and
//! their stop points.

use std::collections::{BTreeMap, HashMap};

use super::{Object, Repository, collect_stops};
use crate::interp::state::method_location;
use abap_data::LoadError;
use abap_data::debug::{ObjectKind, SourcePart};
use abap_syntax::parser::function_group::{
    Member, ModuleInterface, assemble, main_program, member_kind, module_include, read_interfaces,
};
use abap_syntax::parser::{SourceCtx, parse_source};

/// What a file of a function group is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum GroupFile {
    /// `<group>.fugr.xml`.
    Metadata,
    /// `<group>.fugr.<member>.abap` (member upper case).
    Source(String),
}

/// `zfg.fugr.z_fm.abap` → (`ZFG`, source `Z_FM`); `zfg.fugr.xml` → (`ZFG`, metadata). Other
/// files of a group (`.fugr.lzfgtop.xml`, texts) are not loaded.
pub(super) fn group_file(file_name: &str) -> Option<(String, GroupFile)> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let lower = base.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split('.').collect();
    let name = |s: &str| s.replace('#', "/").to_ascii_uppercase();
    match parts.as_slice() {
        [group, "fugr", "xml"] if !group.is_empty() => Some((name(group), GroupFile::Metadata)),
        [group, "fugr", member, "abap"] if !group.is_empty() && !member.is_empty() => {
            Some((name(group), GroupFile::Source(name(member))))
        }
        _ => None,
    }
}

/// The files of one group as loaded so far, and what they contributed.
#[derive(Debug, Default)]
pub(super) struct GroupFiles {
    /// File name and text of `.fugr.xml`.
    metadata: Option<(String, String)>,
    /// Member → file name and text.
    sources: BTreeMap<String, (String, String)>,
    /// Objects and class keys the group's last build added.
    objects: Vec<String>,
    keys: Vec<String>,
}

/// One parsed member, ready to be added.
struct Built {
    member: String,
    kind: ObjectKind,
    text: String,
}

impl Repository {
    /// Adds one file of group `group`; the group is rebuilt. A file that does not load is
    /// forgotten again (the group stays as it was without it).
    pub(super) fn add_group_file(
        &mut self,
        group: &str,
        what: GroupFile,
        file_name: &str,
        text: &str,
    ) -> Result<(), LoadError> {
        let entry = self.groups.entry(group.to_string()).or_default();
        let previous = match &what {
            GroupFile::Metadata => entry
                .metadata
                .replace((file_name.to_string(), text.to_string())),
            GroupFile::Source(member) => entry
                .sources
                .insert(member.clone(), (file_name.to_string(), text.to_string())),
        };
        let result = self.rebuild_group(group);
        if result.is_err() {
            if let Some(g) = self.groups.get_mut(group) {
                match &what {
                    GroupFile::Metadata => g.metadata = previous,
                    GroupFile::Source(member) => match previous {
                        Some(p) => {
                            g.sources.insert(member.clone(), p);
                        }
                        None => {
                            g.sources.remove(member);
                        }
                    },
                }
            }
            // The group as it was loads again (it loaded before).
            let _ = self.rebuild_group(group);
        }
        result
    }

    /// Forgets what group `group` contributed (objects, classes, stop points).
    fn withdraw_group(&mut self, group: &str) {
        let Some(g) = self.groups.get_mut(group) else {
            return;
        };
        let objects = std::mem::take(&mut g.objects);
        let keys = std::mem::take(&mut g.keys);
        for key in keys {
            self.classes.remove(&key);
        }
        for object in &objects {
            self.objects.remove(object);
        }
        self.stops.retain(|(o, _), _| !objects.contains(o));
    }

    /// Forgets group `group` entirely (a failed [`Repository::load_dir`] of its files).
    pub(super) fn remove_group(&mut self, group: &str) {
        self.withdraw_group(group);
        self.groups.remove(group);
    }

    /// For [`Repository::load_dir`], after all files of `group` were added: the metadata is
    /// there and every module has both its interface and its source.
    pub(super) fn check_group(&self, group: &str) -> Result<(), LoadError> {
        let Some(g) = self.groups.get(group) else {
            return Ok(());
        };
        let err = |file: &str, message: String| LoadError::Syntax {
            file: file.to_string(),
            line: 1,
            message,
        };
        let Some((xml_file, xml)) = &g.metadata else {
            let file = format!("{}.fugr.xml", group.to_ascii_lowercase().replace('/', "#"));
            return Err(err(&file, format!("function group {group} has no {file}")));
        };
        let interfaces = read_interfaces(xml).map_err(|m| err(xml_file, m))?;
        for (member, (file, _)) in &g.sources {
            if member_kind(group, member) == Member::Module
                && !interfaces.iter().any(|i| &i.interface.name == member)
            {
                return Err(err(
                    file,
                    format!("function module {member} is not in {xml_file}"),
                ));
            }
        }
        for i in &interfaces {
            if !g.sources.contains_key(&i.interface.name) {
                return Err(err(
                    xml_file,
                    format!("function module {} has no source file", i.interface.name),
                ));
            }
        }
        Ok(())
    }

    /// Rebuilds group `group` from its files.
    fn rebuild_group(&mut self, group: &str) -> Result<(), LoadError> {
        self.withdraw_group(group);
        let Some(g) = self.groups.get(group) else {
            return Ok(());
        };
        let interfaces: Vec<ModuleInterface> = match &g.metadata {
            Some((file, xml)) => read_interfaces(xml).map_err(|message| LoadError::Syntax {
                file: file.clone(),
                line: 1,
                message,
            })?,
            None => Vec::new(),
        };
        let program = main_program(group);
        let mut parsed = Vec::new();
        let mut built = Vec::new();
        let mut unknown_modules = 0;
        for (member, (file, text)) in &g.sources {
            let (kind, object, include) = match member_kind(group, member) {
                Member::MainProgram => (ObjectKind::FunctionGroup, group.to_string(), member),
                Member::Include => (ObjectKind::FunctionInclude, member.clone(), member),
                Member::Module => {
                    let n = match interfaces.iter().position(|i| &i.interface.name == member) {
                        Some(i) => i + 1,
                        None => {
                            unknown_modules += 1;
                            interfaces.len() + unknown_modules
                        }
                    };
                    let include = module_include(group, n);
                    let ctx = ctx(member, ObjectKind::FunctionModule, file, &program, &include);
                    parsed.push(parse_text(&ctx, text)?);
                    built.push(Built {
                        member: member.clone(),
                        kind: ObjectKind::FunctionModule,
                        text: text.clone(),
                    });
                    continue;
                }
            };
            let ctx = ctx(&object, kind, file, &program, include);
            parsed.push(parse_text(&ctx, text)?);
            built.push(Built {
                member: object,
                kind,
                text: text.clone(),
            });
        }
        let classes = assemble(&program, parsed, &interfaces);
        let mut objects = vec![group.to_string()];
        let mut stops: HashMap<(String, SourcePart), BTreeMap<u32, abap_data::debug::Location>> =
            HashMap::new();
        for c in &classes {
            for imp in &c.implementations {
                let map = stops
                    .entry((imp.place.object.clone(), imp.place.part))
                    .or_default();
                collect_stops(imp, &imp.body, map);
                if let Some(end) = imp.end_line {
                    map.entry(end).or_insert_with(|| method_location(imp, end));
                }
            }
        }
        // The group itself is an object even without its main program's file.
        self.objects.insert(
            group.to_string(),
            Object {
                kind: Some(ObjectKind::FunctionGroup),
                group: Some(group.to_string()),
                ..Object::default()
            },
        );
        for b in built {
            let entry = self.objects.entry(b.member.clone()).or_default();
            entry.kind = Some(b.kind);
            entry.group = Some(group.to_string());
            entry.sources.insert(SourcePart::Main, b.text);
            if !objects.contains(&b.member) {
                objects.push(b.member);
            }
        }
        self.stops.extend(stops);
        let keys: Vec<String> = classes.iter().map(|c| c.key.clone()).collect();
        for c in classes {
            self.classes.insert(c.key.clone(), c);
        }
        if let Some(g) = self.groups.get_mut(group) {
            g.objects = objects;
            g.keys = keys;
        }
        Ok(())
    }
}

fn ctx(object: &str, kind: ObjectKind, file: &str, program: &str, include: &str) -> SourceCtx {
    SourceCtx {
        object: object.to_string(),
        kind,
        part: SourcePart::Main,
        file: file.to_string(),
        pool: Some((program.to_string(), include.to_string())),
    }
}

fn parse_text(ctx: &SourceCtx, text: &str) -> Result<abap_syntax::parser::Parsed, LoadError> {
    parse_source(ctx, text.strip_prefix('\u{feff}').unwrap_or(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        assert_eq!(
            group_file("a/zfg.fugr.z_fm.abap"),
            Some(("ZFG".into(), GroupFile::Source("Z_FM".into())))
        );
        assert_eq!(
            group_file("ZFG.FUGR.XML"),
            Some(("ZFG".into(), GroupFile::Metadata))
        );
        assert_eq!(
            group_file("#ns#fg.fugr.#ns#lfgtop.abap"),
            Some(("/NS/FG".into(), GroupFile::Source("/NS/LFGTOP".into())))
        );
        assert_eq!(group_file("zfg.fugr.lzfgtop.xml"), None);
        assert_eq!(group_file("zcl_x.clas.abap"), None);
    }
}
