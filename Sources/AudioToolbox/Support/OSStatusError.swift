/// An OSStatus carried as a Swift error (typed throws and Result inside the engine): the support layer's
/// error type, used by units, graphs, files and converters alike, turned back into a status at the API.
struct OSStatusError: Error {
    let status: OSStatus
    init(_ status: OSStatus) { self.status = status }
}
