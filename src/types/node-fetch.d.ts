// node-fetch 2 (grammY's own HTTP client on Node) ships no types: the part pacedFetch uses.
declare module "node-fetch" {
  interface NodeFetchResponse {
    readonly status: number;
    text(): Promise<string>;
    json(): Promise<unknown>;
  }
  export default function fetch(url: string, init?: Record<string, unknown>): Promise<NodeFetchResponse>;
}
