# abapdbg's Tab completion for Nushell (the `abapdbg` command line; the plugin's `abap …`
# commands complete by themselves). Nushell asks an external completer for the words of any
# external command: this one asks `abapdbg` (its fish answers: a value, a tab, a description)
# for `abapdbg` lines and leaves every other command to Nushell's own completion.
#
# Load it from config.nu: `source /path/to/completions/abapdbg.nu`. If you already have an
# external completer (carapace, fish), call `do $abapdbg_completer $spans` from it when
# `$spans.0 == "abapdbg"` instead.

let abapdbg_completer = {|spans: list<string>|
    COMPLETE=fish abapdbg -- ...$spans
    | lines
    | each {|line|
        let part = $line | split row "\t"
        {value: $part.0, description: ($part.1? | default "")}
    }
}

$env.config.completions.external = {
    enable: true
    completer: {|spans|
        if ($spans.0 == "abapdbg") { do $abapdbg_completer $spans }
    }
}
