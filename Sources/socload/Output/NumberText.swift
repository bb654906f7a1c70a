/// Numbers as people read them in messages.
enum NumberText {
    /// `1071` → `1,071`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(character)
        }
        return value < 0 ? "-" + result : result
    }

    /// `1 row`, `1,071 rows`: the count grouped, the noun in the plural unless the count is 1.
    static func counted(_ value: Int, _ noun: String) -> String {
        grouped(value) + " " + noun + (value == 1 ? "" : "s")
    }

    /// `0.4 s`, `12.3 s`, `2 min 5 s`.
    static func seconds(_ value: Double) -> String {
        if value < 60 {
            return String(Int((value * 10).rounded()) / 10) + "." + String(Int((value * 10).rounded()) % 10) + " s"
        }
        let total = Int(value.rounded())
        return "\(total / 60) min \(total % 60) s"
    }

    /// `532 B`, `12.3 MB` (decimal units).
    static func bytes(_ value: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var amount = Double(value)
        var unit = 0
        while amount >= 1000, unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        if unit == 0 { return "\(value) B" }
        let tenths = Int((amount * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
