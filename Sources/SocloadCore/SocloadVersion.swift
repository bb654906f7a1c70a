/// socload's version, shown by `socload --version` and sent in the `User-Agent` header.
public enum SocloadVersion {
    public static let current = "0.1.0"
}
