/**
 * An error with a code from its raiser's closed list: what a domain or a service refuses. Each
 * service maps the codes it may see to HTTP answers in one place (`domainErrorMapping`), so the
 * code, not the class or the message, is what a client branches on. Named after its subclass.
 */
export abstract class CodedError<C extends string> extends Error {
  constructor(
    readonly code: C,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
