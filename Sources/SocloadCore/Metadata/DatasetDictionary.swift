/// What the portal says about a dataset as a whole, kept with each load (the catalog's
/// `dictionary_json`): its description, attribution, license, category, tags and page. The
/// columns' display names, descriptions, Socrata types and formats are in `columns_json`.
/// `socload info TABLE --dictionary` prints both.
public struct DatasetDictionary: Codable, Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var attribution: String?
    public var attributionLink: String?
    public var license: String?
    public var licenseID: String?
    public var category: String?
    public var tags: [String]
    /// The dataset's page on its portal (`https://DOMAIN/d/ID`), when both are known.
    public var pageURL: String?
    /// How often the portal says the dataset is updated, as it says it (`Daily`, `Data are
    /// updated quarterly`): from its custom fields or description (`StatedUpdateFrequency`).
    public var updateFrequency: String?

    public init(name: String? = nil, description: String? = nil, attribution: String? = nil, attributionLink: String? = nil,
                license: String? = nil, licenseID: String? = nil, category: String? = nil, tags: [String] = [],
                pageURL: String? = nil, updateFrequency: String? = nil) {
        self.name = name
        self.description = description
        self.attribution = attribution
        self.attributionLink = attributionLink
        self.license = license
        self.licenseID = licenseID
        self.category = category
        self.tags = tags
        self.pageURL = pageURL
        self.updateFrequency = updateFrequency
    }

    /// True when the portal said nothing about the dataset beyond its name.
    public var isEmpty: Bool {
        description == nil && attribution == nil && license == nil && category == nil && tags.isEmpty && pageURL == nil
            && updateFrequency == nil
    }
}
