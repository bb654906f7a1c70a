/// Text made safe and measurable for a terminal.
enum TerminalText {
    /// The text with every control character, ANSI escape and bidirectional override shown as an
    /// escape sequence (`\n`, `\t`, `\x1b`, `\u{202e}`), so data can never drive the terminal.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                result += scalar.value < 0x100
                    ? "\\x" + (hex.count < 2 ? "0" + hex : hex)
                    : "\\u{" + hex + "}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7f..<0xa0: return true // C0, DEL, C1 (ESC starts every ANSI sequence)
        case 0x202a...0x202e, 0x2066...0x2069: return true // bidirectional embeddings and isolates
        default: return false
        }
    }

    /// The number of terminal columns the text occupies: East Asian wide characters and emoji take
    /// two, combining marks and other zero-width characters none.
    static func displayWidth(_ text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars {
            width += columns(of: scalar)
        }
        return width
    }

    private static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if value == 0x200b || (0x1160...0x11ff).contains(value) || (0xfe00...0xfe0f).contains(value) {
            return 0
        }
        return isWide(value) || scalar.properties.isEmojiPresentation ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode Standard Annex #11).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115f, 0x2e80...0x303e, 0x3041...0x33ff, 0x3400...0x4dbf, 0x4e00...0x9fff,
             0xa000...0xa4cf, 0xa960...0xa97f, 0xac00...0xd7a3, 0xf900...0xfaff, 0xfe10...0xfe19,
             0xfe30...0xfe6f, 0xff00...0xff60, 0xffe0...0xffe6, 0x1f300...0x1f64f, 0x1f900...0x1f9ff,
             0x20000...0x2fffd, 0x30000...0x3fffd:
            return true
        default:
            return false
        }
    }

    /// The text cut to at most `width` display columns, its end replaced by `…` when cut.
    static func cut(_ text: String, to width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = displayWidth(String(character))
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// The text padded with spaces to `width` display columns, on the left or the right.
    static func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - displayWidth(text)))
        return alignRight ? padding + text : text + padding
    }
}
