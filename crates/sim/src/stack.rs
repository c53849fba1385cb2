//! The `dbg:stack` document (§8.2).

use abap::Frame;

use crate::state::INSTANCE;
use crate::uri::location_uri;
use crate::xml::{XML_DECL, attr};

/// `frames` innermost first; `selected` = 0-based index of the selected entry.
pub(crate) fn stack_xml(frames: &[Frame], selected: usize) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<dbg:stack");
    attr(&mut s, "isRfc", "false");
    attr(&mut s, "debugCursorStackIndex", &selected.to_string());
    attr(&mut s, "isSameSystem", "true");
    attr(&mut s, "serverName", INSTANCE);
    // The namespace is declared last (captured order).
    attr(&mut s, "xmlns:dbg", "http://www.sap.com/adt/debugger");
    s.push('>');
    let n = frames.len();
    for (i, f) in frames.iter().enumerate() {
        let loc = &f.location;
        let position = (n - i).to_string();
        s.push_str("<stackEntry");
        attr(&mut s, "stackPosition", &position);
        attr(&mut s, "stackType", "ABAP");
        attr(
            &mut s,
            "stackUri",
            &format!("/sap/bc/adt/debugger/stack/type/ABAP/position/{position}"),
        );
        attr(&mut s, "programName", &loc.program);
        attr(&mut s, "includeName", &loc.include);
        attr(&mut s, "line", &loc.line.to_string());
        attr(&mut s, "eventType", &loc.event_type);
        attr(&mut s, "eventName", &loc.event_name);
        attr(&mut s, "sourceType", "ABAP");
        attr(&mut s, "systemProgram", "false");
        attr(&mut s, "isVit", "false");
        // 7.5x systems mark the frame the debugger has selected (the one
        // `debugCursorStackIndex` points at); a client reading it would otherwise show every
        // frame inactive.
        attr(
            &mut s,
            "isActive",
            if i == selected { "true" } else { "false" },
        );
        attr(&mut s, "adtcore:uri", &location_uri(loc, i == 0));
        attr(&mut s, "xmlns:adtcore", "http://www.sap.com/adt/core");
        s.push_str("/>");
    }
    s.push_str("</dbg:stack>");
    s
}

/// 0-based entry index of the ABAP frame with 1-based `position` (outermost = 1).
pub(crate) fn index_of_position(depth: usize, position: usize) -> Option<usize> {
    if position == 0 || position > depth {
        None
    } else {
        Some(depth - position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use abap::{Location, ObjectKind, SourcePart};

    fn frame(line: u32, include: &str, event: &str) -> Frame {
        Frame {
            location: Location {
                object: "ZCL_X".into(),
                kind: ObjectKind::Class,
                part: SourcePart::Main,
                program: "ZCL_X=========================CP".into(),
                include: include.into(),
                line,
                include_line: 2,
                event_type: "METHOD".into(),
                event_name: event.into(),
            },
        }
    }

    #[test]
    fn shape() {
        let x = stack_xml(&[frame(48, "I2", "LINE_TOTAL"), frame(36, "I1", "MAIN")], 0);
        assert!(x.contains("debugCursorStackIndex=\"0\""));
        assert!(x.contains("<stackEntry stackPosition=\"2\" stackType=\"ABAP\" stackUri=\"/sap/bc/adt/debugger/stack/type/ABAP/position/2\" programName=\"ZCL_X=========================CP\" includeName=\"I2\" line=\"48\" eventType=\"METHOD\" eventName=\"LINE_TOTAL\" sourceType=\"ABAP\" systemProgram=\"false\" isVit=\"false\" isActive=\"true\" adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_x/source/main#start=48,0\" xmlns:adtcore=\"http://www.sap.com/adt/core\"/>"));
        assert!(x.contains("isActive=\"false\" adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_x/source/main#start=36\" xmlns"));
        let second = stack_xml(&[frame(48, "I2", "LINE_TOTAL"), frame(36, "I1", "MAIN")], 1);
        assert!(second.contains(
            "isActive=\"false\" adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_x/source/main#start=48,0\""
        ));
        assert!(second.contains(
            "isActive=\"true\" adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_x/source/main#start=36\""
        ));
        assert_eq!(index_of_position(2, 1), Some(1));
        assert_eq!(index_of_position(2, 3), None);
        assert_eq!(index_of_position(2, 0), None);
    }
}
