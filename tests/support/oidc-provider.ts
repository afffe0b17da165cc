/**
 * A real OpenID provider for the tests: `oidc-provider` (OpenID Certified), on loopback, with its
 * development login and consent pages. Any login name is accepted as that person's e-mail, so a
 * browser journey signs in as whoever it types. Nothing is faked of the protocol: discovery, the
 * authorization code with PKCE, signed ID tokens and userinfo are the library's own.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the relying party's callback, once its address is known. */
  start(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  let handler: http.RequestListener | null = null;
  const server = http.createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end("provider not started");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "modelyard-test";
  const clientSecret = "oidc-test-client-secret-0123456789";
  return {
    issuer,
    clientId,
    clientSecret,
    start(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] }],
        cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
        findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, email: id, email_verified: true, name: id.split("@")[0] }) }),
        pkce: { required: () => true },
      });
      const callback = provider.callback();
      handler = (req, res) => void callback(req, res);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
