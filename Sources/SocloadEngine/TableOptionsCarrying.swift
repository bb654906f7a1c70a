import SocloadCore

/// A load request that carries its table's options (`TableOptions`), each of them also at hand as
/// a property of the request itself: `request.primaryKey` reads and writes
/// `request.tableOptions.primaryKey`, as requests had them before the options became one value.
@dynamicMemberLookup
public protocol TableOptionsCarrying {
    var tableOptions: TableOptions { get set }
}

extension TableOptionsCarrying {
    /// `request.OPTION` is `request.tableOptions.OPTION`.
    public subscript<Value>(dynamicMember option: WritableKeyPath<TableOptions, Value>) -> Value {
        get { tableOptions[keyPath: option] }
        set { tableOptions[keyPath: option] = newValue }
    }
}
