/// The tests use the tool kit's pieces (the reference decoder and self-checks, the seeded
/// generator, the loopback HTTP server) as before they moved out of this target.
@_exported import SocloadToolKit
