//! Argument forms several commands share.

use std::time::Duration;

use jsonl::args::LineTargetArgs;

/// `30s`, `500ms`, `2m`, `1h`, or a bare number of seconds (`30`, as the seed's
/// `attach --timeout 30`).
pub(crate) fn duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a duration (e.g. 30s, 500ms, 2m)"))?;
    let seconds = match unit.trim() {
        "" | "s" | "sec" | "secs" => n,
        "ms" => n / 1000.0,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        other => return Err(format!("unknown unit '{other}' (ms, s, m or h)")),
    };
    // Beyond a day is a typo; the protocol's wait takes milliseconds as u64 anyway.
    if !(0.0..=86_400.0).contains(&seconds) {
        return Err(format!("'{text}' is out of range (at most 24h)"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// A line of the current source (`42`) or a location (`ZCL_X:42`): the arguments of
/// `run_to_line` and `jump_to_line`.
pub(crate) fn line_target(text: &str) -> LineTargetArgs {
    let t = text.trim();
    match t.parse::<u32>() {
        Ok(line) => LineTargetArgs {
            line: Some(line),
            ..LineTargetArgs::default()
        },
        Err(_) => LineTargetArgs {
            location: Some(t.to_string()),
            ..LineTargetArgs::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert!(duration("soon").is_err());
        assert!(duration("3d").is_err());
        assert!(duration("48h").is_err());
    }

    #[test]
    fn lines_and_locations() {
        assert_eq!(line_target("40").line, Some(40));
        assert_eq!(line_target("40").location, None);
        assert_eq!(
            line_target(" ZCL_X:40").location.as_deref(),
            Some("ZCL_X:40")
        );
        assert_eq!(line_target("ZCL_X:40").line, None);
    }
}
