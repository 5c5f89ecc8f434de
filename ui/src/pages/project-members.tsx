// The old address of a project's members: they are the Members tab of the project's page now.
import { Navigate, useParams } from 'react-router';
import { projectPath } from '../paths';

export default function ProjectMembersAddress() {
  const { projectId = '' } = useParams();
  return <Navigate to={projectPath(projectId, 'members')} replace />;
}
