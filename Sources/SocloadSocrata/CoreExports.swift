/// A caller that imports SocloadSocrata also sees the plan, the values and the roles it is
/// written in terms of (they moved to SocloadCore; code written before keeps compiling).
@_exported import SocloadCore
