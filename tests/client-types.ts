// Checked by `tsc --noEmit` (not run): the typed client holds request bodies to exactly what the contract declares.
// Imported from the client's source, as every test imports it.
import { createClient } from '../client/index.js';

const api = createClient('http://localhost:4242', { token: '*:*.secret' });

export async function exactBodies() {
  await api.POST('/api/admin/tag-types', { body: { name: 'team', description: 'Owning team' } });
  // @ts-expect-error an unknown top-level body field
  await api.POST('/api/admin/tag-types', { body: { name: 'team', colour: 'red' } });
  // @ts-expect-error a misspelled field (the server answers 400 to it)
  await api.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name: 'f', descripton: 'typo' } });
  const { data } = await api.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'simple' } } });
  // Answers stay typed (not `any`).
  const name: string | undefined = data?.tagType.name;
  // @ts-expect-error a field the answer does not have
  void data?.colour;
  void name;
  // @ts-expect-error a wrong type still fails, as before
  await api.POST('/api/admin/tag-types', { body: { name: 42 } });
}
