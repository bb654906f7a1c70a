import Foundation
import SocloadCore

/// `column=date` for the date options: the date is read as the period it names (`DatePeriod`);
/// anything else is a usage error naming the forms.
struct ColumnPeriod: ExpressibleByArgument {
    let column: String
    let period: DatePeriod

    init?(argument: String) {
        guard let pair = ColumnValue(argument: argument), let period = DatePeriod(pair.value) else { return nil }
        column = pair.column
        self.period = period
    }

    init(column: String, period: DatePeriod) {
        self.column = column
        self.period = period
    }

    static var expectation: String { "COLUMN=DATE with a date or timestamp such as \(DatePeriod.forms)" }
}
