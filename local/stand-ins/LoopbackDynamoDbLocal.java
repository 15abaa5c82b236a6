import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local with two things its command line cannot do: it listens on 127.0.0.1 only (its
 * Jetty connector has no host option and binds every interface), and it dies with its parent:
 * the parent holds this process's stdin, so when the parent exits for any reason (SIGKILL
 * included) the pipe closes and so does DynamoDB Local.
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
    while (System.in.read() != -1) {
      // nothing is ever written: the read only returns when the parent's end closes
    }
    Runtime.getRuntime().halt(0);
  }
}
