// Whether a URL's host is this machine: the token may go there over plain http (the sandbox, a
// local proxy or tunnel); anywhere else it would cross a network in clear.

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
