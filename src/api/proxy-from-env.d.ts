// Types of proxy-from-env (the package ships none): the proxy URL for a request URL, '' for none.
declare module 'proxy-from-env' {
  export function getProxyForUrl(url: string | URL): string;
}
