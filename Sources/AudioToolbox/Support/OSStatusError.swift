/// An OSStatus carried as a Swift error (typed throws and Result inside the engine): the support layer's
/// error type, used by units, graphs, files and converters alike, turned back into a status at the API.
package struct OSStatusError: Error {
    package let status: OSStatus
    /// The error carrying `status`.
    package init(_ status: OSStatus) { self.status = status }
}
