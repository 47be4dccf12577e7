import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { handleMcpRequest } from '#app/features/developers/mcp.server'

/**
 * /mcp: the MCP server (Streamable HTTP, stateless; decision 0381). POST carries the JSON-RPC messages; GET and DELETE
 * answer 405 (no server stream, no session to end). A personal API key as Bearer; without one, 401 with
 * WWW-Authenticate.
 */
export const action = ({ request }: ActionFunctionArgs) => handleMcpRequest(request)
export const loader = ({ request }: LoaderFunctionArgs) => handleMcpRequest(request)
