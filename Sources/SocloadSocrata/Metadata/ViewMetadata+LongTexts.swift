import Foundation
import SocloadCore

extension ViewMetadata {
    /// The view in a JSON document (`T` holds it; `view` takes it out), decoded from the bytes
    /// where they lie, its long strings taken out first (`LongJSONStrings`) and put back.
    static func decodeInPlace<T: Decodable>(_ type: T.Type, from bytes: inout [UInt8],
                                            view: (T) -> ViewMetadata) throws -> ViewMetadata {
        let long = try LongJSONStrings(takingFrom: &bytes)
        let decoded = try bytes.withUnsafeBytes { buffer in
            let data = buffer.baseAddress.map {
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: buffer.count, deallocator: .none)
            } ?? Data()
            return try JSONDecoder().decode(T.self, from: data)
        }
        return view(decoded).restoringLongTexts(long)
    }

    /// The view with every text that `long` took out of its JSON before decoding put back: the
    /// dataset's facts and each column's names, description, types, format and statistics.
    func restoringLongTexts(_ long: LongJSONStrings) -> ViewMetadata {
        guard !long.texts.isEmpty else { return self }
        var view = self
        view.id = long.text(for: id)
        view.name = long.text(for: name)
        view.viewType = long.text(for: viewType)
        view.displayType = long.text(for: displayType)
        view.assetType = long.text(for: assetType)
        var facts = dictionary
        facts.name = long.text(for: facts.name)
        facts.description = long.text(for: facts.description)
        facts.attribution = long.text(for: facts.attribution)
        facts.attributionLink = long.text(for: facts.attributionLink)
        facts.license = long.text(for: facts.license)
        facts.licenseID = long.text(for: facts.licenseID)
        facts.category = long.text(for: facts.category)
        facts.tags = facts.tags.map { long.text(for: $0) }
        facts.pageURL = long.text(for: facts.pageURL)
        view.customFields = customFields.map {
            CustomField(group: long.text(for: $0.group), field: long.text(for: $0.field), value: long.text(for: $0.value))
        }
        // Read again from the texts as they are (a long description was not there to be read).
        facts.updateFrequency = StatedUpdateFrequency.find(customFields: view.customFields, description: facts.description)
        view.dictionary = facts
        view.columns = columns.map { column in
            var column = column
            column.name = long.text(for: column.name)
            column.fieldName = long.text(for: column.fieldName)
            column.dataTypeName = long.text(for: column.dataTypeName)
            column.renderTypeName = long.text(for: column.renderTypeName)
            column.description = long.text(for: column.description)
            column.subColumnTypes = column.subColumnTypes?.map { long.text(for: $0) }
            column.flags = column.flags?.map { long.text(for: $0) }
            column.format = column.format?.mapValues { long.text(for: $0) }
            if var statistics = column.cachedContents {
                statistics.smallest = long.text(for: statistics.smallest)
                statistics.largest = long.text(for: statistics.largest)
                column.cachedContents = statistics
            }
            return column
        }
        return view
    }
}
