import { Center, Loader } from '@mantine/core';

/** The whole page while the first screen's code loads (a lazily loaded screen opened directly). */
export function PageLoading() {
  return (
    <Center mih="100vh" aria-busy="true" aria-label="Loading">
      <Loader color="teal" />
    </Center>
  );
}
