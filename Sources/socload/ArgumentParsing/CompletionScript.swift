/// `socload completion bash|zsh|fish`: a completion script made from the same command
/// declarations (`CommandSpec`) as the help, so it never lists an option that is not there.
/// It completes the commands, each command's options, the values of an option that takes one of
/// a few (`--format`, `--api`, `--on-schema-change`...), files where a value is a path, and
/// the database's table names where an argument is a table (`select <table>`).
enum CompletionScript {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell, commands: [CommandSpec]) -> String {
        switch shell {
        case .bash: return bash(commands)
        case .zsh: return zsh(commands)
        case .fish: return fish(commands)
        }
    }

    /// The values an option takes, when they are a few known words.
    static func choices(of option: OptionSpec) -> [String]? {
        guard let valueName = option.valueName, !takesPath(option) else { return nil }
        if valueName == "format" { return OutputFormat.allCases.map(\.rawValue) }
        if valueName == "api" || option.name == "api" { return ["auto", "rows", "soda2", "soda3"] }
        if valueName == "shell" { return Shell.allCases.map(\.rawValue) }
        let words = valueName.split(separator: "|").map(String.init)
        return words.count > 1 && words.allSatisfy({ $0.allSatisfy { $0.isLetter || $0 == "-" } }) ? words : nil
    }

    /// True when the command's first argument is a table (`select <table>`, `info <table-or-id>`):
    /// it completes the names of the tables of the database the command would open.
    static func takesTable(_ command: CommandSpec) -> Bool {
        guard let first = command.arguments.first?.name else { return false }
        return first == "table" || first == "table-or-id"
    }

    /// True when the option's value is a file or directory.
    static func takesPath(_ option: OptionSpec) -> Bool {
        guard let valueName = option.valueName else { return false }
        return ["path", "dir", "file", "path|url", "file|url"].contains(valueName)
    }

    // MARK: - bash

    private static func bash(_ commands: [CommandSpec]) -> String {
        var cases = ""
        for command in commands {
            let options = command.options.map { "--" + $0.name } + ["--help"]
            var values = ""
            for option in command.options where !option.isFlag {
                let completion = choices(of: option).map { "COMPREPLY=($(compgen -W '\($0.joined(separator: " "))' -- \"$cur\"))" }
                    ?? (takesPath(option) ? "COMPREPLY=($(compgen -f -- \"$cur\"))" : "COMPREPLY=()")
                values += "                --\(option.name)) \(completion); return ;;\n"
            }
            cases += """
                    \(command.name))
                        case "$prev" in
            \(values)            esac
                        if [[ "$cur" == -* ]]; then
                            COMPREPLY=($(compgen -W '\(options.joined(separator: " "))' -- "$cur"))
                        else
                            \(takesTable(command) ? tableOrFiles(valued: command.options.filter { !$0.isFlag }.map { "--" + $0.name })
                                : "COMPREPLY=($(compgen -f -- \"$cur\"))")
                        fi
                        ;;

            """
        }
        return """
            # bash completion for socload (socload completion bash). Load it with
            #   source <(socload completion bash)
            # The tables of the database the command line names (--db, else the command's default).
            # The line is read whole (bash splits words at : and =, as in --db=x or postgresql://).
            _socload_tables() {
                local words=() args=() i IFS=$' \t\n'
                if [[ -n "${COMP_LINE-}" ]]; then read -ra words <<< "${COMP_LINE:0:COMP_POINT}"; else words=("${COMP_WORDS[@]:0:COMP_CWORD}"); fi
                for ((i = 2; i < ${#words[@]}; i++)); do
                    case "${words[i]}" in
                        --db|--schema|--project) args+=("${words[i]}" "${words[i+1]}") ;;
                        --db=*|--schema=*|--project=*) args+=("${words[i]}") ;;
                    esac
                done
                socload tables "${args[@]}" --format tsv 2>/dev/null | tail -n +2 | cut -f1
            }
            _socload() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                if [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W '\(commands.map(\.name).joined(separator: " ")) help --help --version' -- "$cur"))
                    return
                fi
                case "${COMP_WORDS[1]}" in
            \(cases)        help)
                        COMPREPLY=($(compgen -W '\(commands.map(\.name).joined(separator: " "))' -- "$cur"))
                        ;;
                esac
            }
            complete -o filenames -F _socload socload

            """
    }

    /// bash: table names for the first argument (the words before it that are no option nor an
    /// option's value: none), files for the later ones (`extract TABLE <columns>` takes no table).
    private static func tableOrFiles(valued: [String]) -> String {
        "local word skip=0 arguments=0; for word in \"${COMP_WORDS[@]:2:COMP_CWORD-2}\"; do "
            + "if [[ $word == = ]]; then skip=1; elif ((skip)); then skip=0; "
            + "elif [[ \" \(valued.joined(separator: " ")) \" == *\" $word \"* ]]; then skip=1; "
            + "elif [[ $word != -* ]]; then ((arguments++)); fi; done; "
            + "if ((arguments == 0)); then local IFS=$'\\n'; COMPREPLY=($(compgen -W \"$(_socload_tables)\" -- \"$cur\")); "
            + "else COMPREPLY=($(compgen -f -- \"$cur\")); fi"
    }

    // MARK: - zsh

    /// Help text as zsh's `_arguments` and `_describe` take it: no brackets or colons, quotes safe.
    private static func zshText(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
            .replacingOccurrences(of: ":", with: " -").replacingOccurrences(of: "'", with: "'\\''")
    }

    private static func zsh(_ commands: [CommandSpec]) -> String {
        let described = commands.map { "        '\($0.name):\(zshText($0.abstract))'" }.joined(separator: "\n")
        var cases = ""
        for command in commands {
            var specs = command.options.map { option -> String in
                let help = zshText(option.help)
                let repeatable = option.isRepeatable ? "*" : ""
                guard let valueName = option.valueName else { return "'\(repeatable)--\(option.name)[\(help)]'" }
                let action = choices(of: option).map { "(\($0.joined(separator: " ")))" } ?? (takesPath(option) ? "_files" : " ")
                return "'\(repeatable)--\(option.name)=[\(help)]:\(zshText(valueName)):\(action)'"
            }
            specs.append(takesTable(command) ? "'1:table:_socload_tables'" : "'*:argument:_files'")
            cases += "        \(command.name))\n            _arguments \\\n                "
                + specs.joined(separator: " \\\n                ") + "\n            ;;\n"
        }
        return """
            #compdef socload
            # zsh completion for socload (socload completion zsh): save it as _socload in a
            # directory of your $fpath, or load it with  source <(socload completion zsh)
            # The tables of the database the command line names (--db, else the command's default).
            _socload_tables() {
                local -a args tables
                local i
                for (( i = 1; i < CURRENT; i++ )); do
                    [[ $words[i] == (--db|--schema|--project) ]] && args+=($words[i] $words[i+1])
                    [[ $words[i] == (--db|--schema|--project)=* ]] && args+=($words[i])
                done
                tables=(${(f)"$(socload tables $args --format tsv 2>/dev/null | tail -n +2 | cut -f1)"})
                compadd -a tables
            }
            _socload() {
                local -a commands
                commands=(
            \(described)
                )
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    return
                fi
                shift words
                (( CURRENT-- ))
                case "$words[1]" in
            \(cases)        help)
                    _describe 'command' commands
                    ;;
                esac
            }
            if [[ "${zsh_eval_context[-1]}" == loadautofunc ]]; then
                _socload "$@"
            else
                compdef _socload socload
            fi

            """
    }

    // MARK: - fish

    private static func fishText(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }

    private static func fish(_ commands: [CommandSpec]) -> String {
        var lines = [
            "# fish completion for socload (socload completion fish): save it as",
            "# ~/.config/fish/completions/socload.fish, or load it with  socload completion fish | source",
            "complete -c socload -f",
            "# The tables of the database the command line names (--db, else the command's default).",
            "function __socload_tables",
            "    set -l tokens (commandline -opc)",
            "    set -l args",
            "    for i in (seq (count $tokens))",
            "        if contains -- $tokens[$i] --db --schema --project; and test $i -lt (count $tokens)",
            "            set -a args $tokens[$i] $tokens[(math $i + 1)]",
            "        else if string match -qr -- '^--(db|schema|project)=' $tokens[$i]",
            "            set -a args $tokens[$i]",
            "        end",
            "    end",
            "    socload tables $args --format tsv 2>/dev/null | tail -n +2 | cut -f1",
            "end",
        ]
        // The options that take a value (their value is no argument): the first argument after
        // the command is a table, later ones are not.
        let valued = Set(commands.flatMap(\.options).filter { $0.valueName != nil }
            .flatMap { option in ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? []) }).sorted()
        lines += [
            "function __socload_first_argument",
            "    set -l tokens (commandline -opc)",
            "    set -l skip 0",
            "    for token in $tokens[3..-1]",
            "        if test $skip -eq 1",
            "            set skip 0",
            "        else if contains -- $token \(valued.joined(separator: " "))",
            "            set skip 1",
            "        else if not string match -q -- '-*' $token",
            "            return 1",
            "        end",
            "    end",
            "end",
        ]
        for command in commands {
            lines.append("complete -c socload -n '__fish_use_subcommand' -a \(command.name) -d '\(fishText(command.abstract))'")
        }
        lines.append("complete -c socload -n '__fish_use_subcommand' -a help -d 'Show help for a command.'")
        for command in commands {
            let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
            for option in command.options {
                var line = "complete -c socload \(condition) -l \(option.name)"
                if let short = option.short { line += " -s \(short)" }
                if let choices = choices(of: option) {
                    line += " -x -a '\(choices.joined(separator: " "))'"
                } else if takesPath(option) {
                    line += " -r -F"
                } else if !option.isFlag {
                    line += " -x"
                }
                lines.append(line + " -d '\(fishText(option.help))'")
            }
            if takesTable(command) {
                lines.append("complete -c socload -n '__fish_seen_subcommand_from \(command.name); and __socload_first_argument' "
                             + "-a '(__socload_tables)' -d table")
                lines.append("complete -c socload -n '__fish_seen_subcommand_from \(command.name); and not __socload_first_argument' -F")
            } else if !command.arguments.isEmpty {
                lines.append("complete -c socload \(condition) -F")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
