// Types for the undici modules the transport imports directly (undici-pool.ts, undici-proxy.ts):
// the classes and functions undici's index exports, from the files that define them.
declare module "undici/lib/dispatcher/pool.js" {
  import type { Pool } from "undici";

  const PoolClass: typeof Pool;
  export default PoolClass;
}

declare module "undici/lib/dispatcher/proxy-agent.js" {
  import type { ProxyAgent } from "undici";

  const ProxyAgentClass: typeof ProxyAgent;
  export default ProxyAgentClass;
}

declare module "undici/lib/api/api-connect.js" {
  import type { Dispatcher } from "undici";

  function connect(this: Dispatcher, options: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData>;
  export default connect;
}
