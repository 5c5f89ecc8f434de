// Lists several pages read, one query each (cached and shared between pages).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from './api';

export const useProjects = () => useQuery({ queryKey: ['projects'], queryFn: async () => (await ok(api.GET('/api/admin/projects'))).projects });
export const useEnvironments = () =>
  useQuery({ queryKey: ['environments'], queryFn: async () => (await ok(api.GET('/api/admin/environments'))).environments });
export const useFeatureTypes = () => useQuery({ queryKey: ['feature-types'], queryFn: async () => (await ok(api.GET('/api/admin/feature-types'))).types });
export const useStrategies = () => useQuery({ queryKey: ['strategies'], queryFn: async () => (await ok(api.GET('/api/admin/strategies'))).strategies });
export const useContextFields = () => useQuery({ queryKey: ['context-fields'], queryFn: () => ok(api.GET('/api/admin/context')) });
export const useSegments = () => useQuery({ queryKey: ['segments'], queryFn: async () => (await ok(api.GET('/api/admin/segments'))).segments });
export const useTagTypes = () => useQuery({ queryKey: ['tag-types'], queryFn: async () => (await ok(api.GET('/api/admin/tag-types'))).tagTypes });
export const useGroups = () => useQuery({ queryKey: ['groups'], queryFn: async () => (await ok(api.GET('/api/admin/groups'))).groups });
/** Every user and the root roles, which GET /api/admin/user-admin answers together (readers pick with `select`). */
export const usersQuery = queryOptions({ queryKey: ['users'], queryFn: () => ok(api.GET('/api/admin/user-admin')) });
export const useTags = () => useQuery({ queryKey: ['tags'], queryFn: async () => (await ok(api.GET('/api/admin/tags'))).tags });

/** Options for a Select from a list of names. */
export const optionsOf = (names: string[] | undefined) => (names ?? []).map((name) => ({ value: name, label: name }));

/** Options for a Select of projects: each chosen by its id, shown by its name. */
export const projectOptions = (projects: { id: string; name: string }[] | undefined) => (projects ?? []).map((p) => ({ value: p.id, label: p.name }));

/** A change through the API, after which the answers under `refresh` are read again. */
export function useChange<V, R>(change: (variables: V) => Promise<R>, ...refresh: string[][]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
