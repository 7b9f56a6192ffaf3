// A route handler: the Node entry in Next.js's server bundle.
import { parseMarkdown } from 'chatmark';

export function GET(request) {
  return Response.json(parseMarkdown(new URL(request.url).searchParams.get('text') ?? ''));
}
