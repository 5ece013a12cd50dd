import { useParams } from 'react-router';
import { errorContentFor } from '@/features/errors/error-content';
import { ErrorPage } from '@/features/errors/components/error-page';

/** /error/:code; an unknown code shows the 404 page. */
export default function ErrorRoute() {
  const { code } = useParams();
  const content = errorContentFor(code);
  return <ErrorPage key={content.code} content={content} />;
}
